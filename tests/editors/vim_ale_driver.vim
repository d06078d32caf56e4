" Drives a real Vim with ALE for tests/editors/test_vim_ale.py, as emacs_driver.el does for eglot: the
" plan (JSON in $GROOPH_PLAN) names the file and the scenario; the user's vimrc (docs/editors.md's
" snippet) is Vim's -u. Vim runs in a pseudo-terminal, so insert mode, the completion menu and ALE's
" jobs and timers behave as for a user; each step waits from a timer as an idle user would. What ALE
" showed and did is written as JSON to $GROOPH_RESULT.

let s:plan = json_decode($GROOPH_PLAN)
let s:result = {'lints': 0, 'fixes': 0}
let s:deadline = reltimefloat(reltime()) + s:plan.timeout_ms / 1000.0
let s:answers = []   " what the user types at ALE's prompts (ale#util#Input), in order
let s:prompts = []

augroup grooph_driver
  autocmd!
  autocmd User ALELintPost let s:result.lints += 1
  autocmd User ALEFixPost let s:result.fixes += 1
augroup END

" ALE asks through ale#util#Input (a number for :ALECodeAction, a name for :ALERename): answered here
" as the user types it.
runtime autoload/ale/util.vim
function! ale#util#Input(message, value, ...) abort
  call add(s:prompts, a:message)
  return empty(s:answers) ? '' : remove(s:answers, 0)
endfunction

function! s:Finish(...) abort
  if a:0
    let s:result.error = a:1
  endif
  call writefile([json_encode(s:result)], $GROOPH_RESULT)
  qall!
endfunction

function! s:Text() abort
  return join(getline(1, '$'), "\n") . "\n"
endfunction

function! s:ReadFile(path) abort
  return join(readfile(a:path, 'b'), "\n")
endfunction

" Calls Then once Predicate holds, polling as time passes; fails saying what after the deadline.
function! s:Wait(what, Predicate, Then) abort
  try
    if a:Predicate()
      call a:Then()
    elseif reltimefloat(reltime()) > s:deadline
      call s:Finish('timed out waiting for ' . a:what)
    else
      call timer_start(30, {-> s:Wait(a:what, a:Predicate, a:Then)})
    endif
  catch
    call s:Finish(v:exception . ' at ' . v:throwpoint)
  endtry
endfunction

function! s:After(ms, Then) abort
  let l:until = reltimefloat(reltime()) + a:ms / 1000.0
  call s:Wait(a:ms . ' ms', {-> reltimefloat(reltime()) >= l:until}, a:Then)
endfunction

function! s:Loclist() abort
  let l:out = []
  for l:item in ale#engine#GetLoclist(bufnr(''))
    call add(l:out, {'code': get(l:item, 'code', v:null), 'text': l:item.text, 'type': l:item.type,
    \ 'lnum': l:item.lnum, 'col': l:item.col, 'end_lnum': get(l:item, 'end_lnum', v:null),
    \ 'end_col': get(l:item, 'end_col', v:null)})
  endfor
  return l:out
endfunction

" The server's first report of the file (a clean file's is empty), as a user waits to see it checked.
function! s:Checked(Then) abort
  call s:Wait("ALE's first report of the file", {-> s:result.lints > 0 && !ale#engine#IsCheckingBuffer(bufnr(''))}, a:Then)
endfunction

function! s:CursorAtPlan() abort
  call cursor(s:plan.at[0] + 1, s:plan.at[1] + 1)
endfunction

" --- scenarios --------------------------------------------------------------------------------------

function! s:QuickFix() abort
  call s:Wait("ALE's diagnostics", {-> !empty(ale#engine#GetLoclist(bufnr('')))}, function('s:QuickFix2'))
endfunction

function! s:QuickFix2() abort
  let s:result.diagnostics = s:Loclist()
  let l:first = s:result.diagnostics[0]
  call cursor(l:first.lnum, l:first.col)
  let s:answers = ['1']            " the first fix offered
  let s:tick = b:changedtick
  let s:lints = s:result.lints
  ALECodeAction
  call s:Wait('the fix applied', {-> b:changedtick != s:tick}, function('s:QuickFix3'))
endfunction

function! s:QuickFix3() abort
  let s:result.offered = s:prompts
  let s:result.buffer = s:Text()
  " The user's next key: Vim's main loop then runs TextChanged, on which ALE checks the text again.
  call feedkeys("\<Esc>", 'nt')
  " A report newer than the fix's and other than the one before it (a late report of the old text
  " can come first).
  call s:Wait('the report of the repaired text',
  \ {-> s:result.lints > s:lints && !ale#engine#IsCheckingBuffer(bufnr('')) && s:Loclist() != s:result.diagnostics},
  \ {-> s:Done({'after': s:Loclist()})})
endfunction

function! s:Save() abort
  let s:result.before = {'fileformat': &fileformat, 'bomb': &bomb, 'modified': &modified}
  let s:fixes = s:result.fixes
  silent write
  " ALE fixes after the write and writes the fixed buffer again (a file type without a fixer: nothing).
  let l:Fixed = has_key(g:ale_fixers, &filetype) ? {-> s:result.fixes > s:fixes} : {-> v:true}
  call s:Wait('the fixer', l:Fixed, {-> s:After(300, {-> s:Done({'buffer': s:Text()})})})
endfunction

function! s:Rename() abort
  call s:CursorAtPlan()
  let s:answers = [s:plan.new_name]
  let s:tick = b:changedtick
  ALERename
  call s:Wait('the rename', {-> b:changedtick != s:tick}, {-> s:Done({'buffer': s:Text()})})
endfunction

function! s:PreviewText() abort
  for l:win in range(1, winnr('$'))
    if getwinvar(l:win, '&previewwindow')
      return join(getbufline(winbufnr(l:win), 1, '$'), "\n")
    endif
  endfor
  return ''
endfunction

function! s:Hover() abort
  call s:CursorAtPlan()
  ALEHover
  call s:Wait('the hover in the preview window', {-> !empty(s:PreviewText())}, {-> s:Done({'hover': s:PreviewText()})})
endfunction

" <C-x><C-o> in insert mode at plan.at, <C-y> on the first item of the menu, <Esc>: typed as a user.
function! s:Complete() abort
  call s:CursorAtPlan()
  call feedkeys("i\<C-x>\<C-o>", 'nt')
  call s:Wait('the completion menu', {-> pumvisible()}, function('s:Complete2'))
endfunction

function! s:Complete2() abort
  let s:result.menu = map(copy(complete_info(['items']).items), {_, item -> {'word': item.word, 'abbr': item.abbr}})
  call feedkeys("\<C-y>\<Esc>", 'nt')
  call s:Wait('normal mode', {-> mode() ==# 'n'}, {-> s:After(500, {-> s:Done({'line': getline('.'), 'buffer': s:Text()})})})
endfunction

function! s:Done(notes) abort
  call extend(s:result, a:notes)
  let s:result.saved_file = s:ReadFile(s:plan.file)
  call s:Finish()
endfunction

function! s:Start() abort
  try
    execute 'edit' fnameescape(s:plan.file)
    let s:result.filetype = &filetype
    let s:result.visited = {'fileformat': &fileformat, 'bomb': &bomb, 'modified': &modified}
    let l:scenario = {'quick-fix': 'QuickFix', 'save': 'Save', 'rename': 'Rename', 'hover': 'Hover', 'complete': 'Complete'}[s:plan.scenario]
    call s:Checked(function('s:' . l:scenario))
  catch
    call s:Finish(v:exception . ' at ' . v:throwpoint)
  endtry
endfunction

call timer_start(0, {-> s:Start()})
