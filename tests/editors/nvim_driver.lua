-- Drives a real headless Neovim with editors/nvim as a user would have it: require('grooph').setup{},
-- open a document, then the steps a scenario names. Writes what it saw as JSON to $GROOPH_RESULT and
-- quits. Run by tests/editors/test_neovim.py; one scenario per Neovim process.
--
-- Environment: GROOPH_PLAN (JSON: {scenario, file, server_cmd, grooph_cmd, timeout_ms, ...}),
-- GROOPH_RESULT (path of the JSON result).

local plan = vim.fn.json_decode(vim.env.GROOPH_PLAN)
local result = { notifications = {}, steps = {}, nvim = tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) .. '.' .. tostring(vim.version().patch) }
local TIMEOUT = plan.timeout_ms or 20000

local function finish()
  local f = assert(io.open(vim.env.GROOPH_RESULT, 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qall!')
end

-- Record every notification (headless Neovim would only print them).
vim.notify = function(message, level)
  table.insert(result.notifications, { message = tostring(message), level = level or vim.log.levels.INFO })
end

-- Record the raw LSP diagnostics (positions as the server sent them), push and pull alike.
local published = {}
local default_publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, params, ctx, config)
  if params and params.uri then
    published[params.uri] = { version = params.version, diagnostics = params.diagnostics, count = ((published[params.uri] or {}).count or 0) + 1 }
  end
  return default_publish(err, params, ctx, config)
end
local default_pull = vim.lsp.handlers['textDocument/diagnostic']
if default_pull then
  vim.lsp.handlers['textDocument/diagnostic'] = function(err, report, ctx, config)
    local uri = ctx and ctx.params and ctx.params.textDocument and ctx.params.textDocument.uri
    if uri and report and report.kind == 'full' then
      published[uri] = { version = nil, diagnostics = report.items, count = ((published[uri] or {}).count or 0) + 1 }
    end
    return default_pull(err, report, ctx, config)
  end
end

local function step(name, value)
  table.insert(result.steps, name)
  result[name] = value
end

local function buffer_text(bufnr)
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') .. '\n'
end

local function read_file(path)
  local f = io.open(path, 'rb')
  if not f then
    return nil
  end
  local text = f:read('*a')
  f:close()
  return text
end

--- Waits for a diagnostics report newer than `after` (a count) for the buffer; returns it or nil.
local function wait_diagnostics(uri, after, accept)
  local got
  vim.wait(TIMEOUT, function()
    local entry = published[uri]
    if entry and entry.count > after and (accept == nil or accept(entry.diagnostics)) then
      got = entry
      return true
    end
    return false
  end, 20)
  return got
end

local function count_for(uri)
  return (published[uri] or {}).count or 0
end

local function codes(diagnostics)
  local out = {}
  for _, d in ipairs(diagnostics or {}) do
    table.insert(out, d.code)
  end
  return out
end

local function has_code(diagnostics, code)
  for _, d in ipairs(diagnostics or {}) do
    if d.code == code then
      return d
    end
  end
  return nil
end

local function client_of(bufnr)
  local c
  vim.wait(TIMEOUT, function()
    c = require('grooph').client_for(bufnr)
    return c ~= nil and (c.initialized == nil or c.initialized)
  end, 20)
  return c
end

--- Places the cursor at an LSP position (UTF-16 columns) of the buffer.
local function cursor_to(bufnr, position)
  local line = vim.api.nvim_buf_get_lines(bufnr, position.line, position.line + 1, false)[1] or ''
  local ok, byte = pcall(vim.str_byteindex, line, position.character, true)
  vim.api.nvim_win_set_cursor(0, { position.line + 1, ok and byte or 0 })
end

--- Runs vim.lsp.buf.code_action for one diagnostic and picks, through vim.ui.select, the quick fix
--- titled `title`, or without one the server's preferred fix, as a user picking the first suggestion would.
local function apply_preferred_fix(bufnr, diagnostic, title)
  cursor_to(bufnr, diagnostic.range.start)
  local offered = {}
  local chosen
  local answered = false -- the selection was made, or Neovim said there is nothing to choose
  local notes = #result.notifications
  local original_select = vim.ui.select
  vim.ui.select = function(items, _, on_choice)
    answered = true
    local pick
    for _, item in ipairs(items) do
      local action = item.action or item[2]
      table.insert(offered, { title = action.title, kind = action.kind, isPreferred = action.isPreferred == true })
      if pick == nil and ((title == nil and action.isPreferred) or action.title == title) then
        pick = item
      end
    end
    chosen = pick and (pick.action or pick[2]).title or nil
    on_choice(pick)
  end
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  local context = { diagnostics = { diagnostic }, only = { 'quickfix' } }
  if vim.fn.has('nvim-0.8') == 1 then
    vim.lsp.buf.code_action({ context = context })
  else
    vim.lsp.buf.code_action(context)
  end
  vim.wait(TIMEOUT, function()
    if vim.api.nvim_buf_get_changedtick(bufnr) ~= tick then
      return true
    end
    for i = notes + 1, #result.notifications do
      if result.notifications[i].message:match('[Nn]o code actions') then
        return true
      end
    end
    return answered and chosen == nil
  end, 20)
  vim.ui.select = original_select
  return { offered = offered, chosen = chosen, changed = vim.api.nvim_buf_get_changedtick(bufnr) ~= tick }
end

local scenarios = {}

--- Diagnostics on open, format on save, a quick fix, the fault gone, saved canonical.
function scenarios.flow(bufnr, uri)
  local client = client_of(bufnr)
  step('attached', client ~= nil)
  step('encoding', client and client.offset_encoding or vim.NIL)
  step('start_method', require('grooph').start_method)
  step('filetype', vim.bo[bufnr].filetype)
  local first = wait_diagnostics(uri, 0, function(d)
    return #d > 0
  end)
  step('opened', first and first.diagnostics or vim.NIL)
  if not first then
    return
  end

  -- :write formats on save (setup's default); the server then checks the formatted text.
  local before = count_for(uri)
  vim.cmd('silent write')
  step('formatted_buffer', buffer_text(bufnr))
  step('formatted_file', read_file(plan.file))
  local after_format = wait_diagnostics(uri, before, function(d)
    return has_code(d, plan.code) ~= nil
  end)
  step('after_format', after_format and after_format.diagnostics or vim.NIL)
  if not after_format then
    return
  end

  before = count_for(uri)
  step('fix', apply_preferred_fix(bufnr, has_code(after_format.diagnostics, plan.code)))
  local after_fix = wait_diagnostics(uri, before, function(d)
    return has_code(d, plan.code) == nil
  end)
  step('after_fix', after_fix and after_fix.diagnostics or vim.NIL)
  step('fixed_buffer', buffer_text(bufnr))
  vim.cmd('silent write')
  step('saved_file', read_file(plan.file))
end

--- Diagnostics on open, the quick fix titled plan.fix_title, the fault gone, :write (a document the
--- server does not format, such as a board workflow: the file keeps every other byte).
function scenarios.fix(bufnr, uri)
  local client = client_of(bufnr)
  step('attached', client ~= nil)
  step('encoding', client and client.offset_encoding or vim.NIL)
  step('filetype', vim.bo[bufnr].filetype)
  local first = wait_diagnostics(uri, 0, function(d)
    return has_code(d, plan.code) ~= nil
  end)
  step('opened', first and first.diagnostics or vim.NIL)
  if not first then
    return
  end
  local before = count_for(uri)
  step('fix', apply_preferred_fix(bufnr, has_code(first.diagnostics, plan.code), plan.fix_title))
  local after_fix = wait_diagnostics(uri, before, function(d)
    return has_code(d, plan.code) == nil
  end)
  step('after_fix', after_fix and after_fix.diagnostics or vim.NIL)
  step('fixed_buffer', buffer_text(bufnr))
  local notes = #result.notifications
  vim.cmd('silent write')
  local said = {}
  for i = notes + 1, #result.notifications do
    table.insert(said, result.notifications[i].message)
  end
  step('said_on_save', said)
  step('saved_file', read_file(plan.file))
end

--- Only the diagnostics a file gets on open.
function scenarios.open(bufnr, uri)
  local client = client_of(bufnr)
  step('attached', client ~= nil)
  step('encoding', client and client.offset_encoding or vim.NIL)
  step('filetype', vim.bo[bufnr].filetype)
  local first = wait_diagnostics(uri, 0, function(d)
    return has_code(d, plan.code) ~= nil
  end)
  step('opened', first and first.diagnostics or vim.NIL)
  step('codes', first and codes(first.diagnostics) or vim.NIL)
end

--- :GroophPreview through the plugin, with the viewer replaced by a recorder.
function scenarios.preview(bufnr)
  local opened
  require('grooph').config.preview.open = function(path)
    opened = path
  end
  local done, path, err = false, nil, nil
  require('grooph.preview').run(bufnr, plan.view ~= vim.NIL and plan.view or nil, function(p, e)
    done, path, err = true, p, e
  end)
  vim.wait(TIMEOUT, function()
    return done
  end, 20)
  step('preview', { done = done, path = path or vim.NIL, error = err or vim.NIL, opened = opened or vim.NIL })
  step('picture', path and read_file(path) or vim.NIL)
end

--- :GroophPreview with the server running: the live page. What the server asked Neovim to show
--- (window/showDocument, recorded instead of opening a browser) and what the plugin opened itself.
function scenarios.live_preview(bufnr, uri)
  local shown, opened = {}, {}
  vim.lsp.handlers['window/showDocument'] = function(_, params)
    table.insert(shown, params)
    return { success = true }
  end
  require('grooph').config.preview.open = function(path)
    table.insert(opened, path)
  end
  wait_diagnostics(uri, 0, function()
    return true
  end)
  local done, url, err = false, nil, nil
  require('grooph.preview').run(bufnr, plan.view ~= vim.NIL and plan.view or nil, function(u, e)
    done, url, err = true, u, e
  end)
  vim.wait(TIMEOUT, function()
    return done and (#shown > 0 or #opened > 0)
  end, 20)
  step('live', { done = done, url = url or vim.NIL, error = err or vim.NIL, shown = shown, opened = opened })
end

--- :GroophPreview as a command, to see that it exists and refuses a wrong argument clearly.
function scenarios.preview_command(bufnr)
  local ok, message = pcall(vim.cmd, 'GroophPreview diagonal')
  step('command', { ok = ok, message = message and tostring(message) or vim.NIL })
  step('filetype', vim.bo[bufnr].filetype)
end

--- The options that decide the bytes :write puts on disk.
local function file_options(bufnr)
  local bo = vim.bo[bufnr]
  return { eol = bo.eol, fixeol = bo.fixeol, fileformat = bo.fileformat, bomb = bo.bomb, fileencoding = bo.fileencoding }
end

--- The diagnostics a user sees in the buffer (every namespace: the server's and the plugin's own).
local function shown_diagnostics(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(out, { lnum = d.lnum, col = d.col, severity = d.severity, message = d.message, source = d.source or vim.NIL, code = code or vim.NIL })
  end
  return out
end

local function format_request(client, bufnr)
  local response
  vim.api.nvim_buf_call(bufnr, function()
    local params = vim.lsp.util.make_formatting_params({})
    if vim.fn.has('nvim-0.11') == 1 then
      response = client:request_sync('textDocument/formatting', params, TIMEOUT, bufnr)
    else
      response = client.request_sync('textDocument/formatting', params, TIMEOUT, bufnr)
    end
  end)
  return response and response.result
end

--- :write with format on save; what is on disk, and whether the server's copy agrees with the buffer
--- (formatting again must change nothing).
function scenarios.save(bufnr, uri)
  local client = client_of(bufnr)
  step('attached', client ~= nil)
  wait_diagnostics(uri, 0)
  step('before', file_options(bufnr))
  step('shown_before', shown_diagnostics(bufnr))
  local notes = #result.notifications
  vim.cmd('silent write')
  step('after', file_options(bufnr))
  step('saved_file', read_file(plan.file))
  local said = {}
  for i = notes + 1, #result.notifications do
    table.insert(said, result.notifications[i].message)
  end
  step('said_on_save', said)
  step('format_again', client and format_request(client, bufnr) or vim.NIL)
  step('shown_after', shown_diagnostics(bufnr))
  vim.cmd('silent write')
  step('saved_again', read_file(plan.file))
end

--- A quick fix chosen by its title (plan.fix_title); where the cursor is afterwards.
function scenarios.fill_in(bufnr, uri)
  local client = client_of(bufnr)
  step('attached', client ~= nil)
  local first = wait_diagnostics(uri, 0, function(d)
    return has_code(d, plan.code) ~= nil
  end)
  step('opened', first and first.diagnostics or vim.NIL)
  if not first then
    return
  end
  local diagnostic = has_code(first.diagnostics, plan.code)
  cursor_to(bufnr, diagnostic.range.start)
  local offered = {}
  local original_select = vim.ui.select
  vim.ui.select = function(items, _, on_choice)
    local pick
    for _, item in ipairs(items) do
      local action = item.action or item[2]
      table.insert(offered, action.title)
      if pick == nil and action.title == plan.fix_title then
        pick = item
      end
    end
    on_choice(pick)
  end
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  local start_cursor = vim.api.nvim_win_get_cursor(0)
  local context = { diagnostics = { diagnostic }, only = { 'quickfix' } }
  if vim.fn.has('nvim-0.8') == 1 then
    vim.lsp.buf.code_action({ context = context })
  else
    vim.lsp.buf.code_action(context)
  end
  -- The edit comes first; then the fix's command moves the cursor (window/showDocument).
  vim.wait(TIMEOUT, function()
    if vim.api.nvim_buf_get_changedtick(bufnr) == tick then
      return false
    end
    local c = vim.api.nvim_win_get_cursor(0)
    return c[1] ~= start_cursor[1] or c[2] ~= start_cursor[2]
  end, 20)
  vim.wait(300)  -- a late second move would show here
  vim.ui.select = original_select
  step('offered', offered)
  local cursor = vim.api.nvim_win_get_cursor(0)
  step('cursor', { line = cursor[1] - 1, col = cursor[2] })
  step('cursor_line', vim.api.nvim_get_current_line())
  step('buffer', buffer_text(bufnr))
end

--- The server attached and the file checked (its first diagnostics), the cursor at plan.at
--- ({line, col}, 0-based bytes).
local function cursor_at_plan(bufnr, uri)
  step('attached', client_of(bufnr) ~= nil)
  wait_diagnostics(uri, 0)
  vim.api.nvim_win_set_cursor(0, { plan.at[1] + 1, plan.at[2] })
end

--- <C-x><C-o> in insert mode at plan.at ({line, col}, 0-based bytes), as a user types it; the menu
--- Neovim shows, then <C-y> on the first item and <Esc>. Asynchronous: keys are typed once the script
--- returns to Neovim's main loop, and the scenario finishes from a timer.
function scenarios.complete(bufnr, uri)
  cursor_at_plan(bufnr, uri)
  step('omnifunc', vim.bo[bufnr].omnifunc)
  local keys = function(k)
    vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(k, true, false, true), 'n', false)
  end
  keys((plan.insert_key or 'i') .. '<C-x><C-o>')
  local started = vim.loop.now()
  local phase = 'menu'
  local timer = vim.loop.new_timer()
  timer:start(50, 30, vim.schedule_wrap(function()
    local ok, err = pcall(function()
      if phase == 'menu' then
        local info = vim.fn.complete_info({ 'items', 'mode' })
        if #info.items > 0 or vim.loop.now() - started > TIMEOUT then
          local words = {}
          for _, item in ipairs(info.items) do
            table.insert(words, { word = item.word, abbr = item.abbr })
          end
          step('menu', words)
          phase = 'accept'
          started = vim.loop.now()
          keys('<C-y><Esc>')
        end
      elseif phase == 'accept' and vim.fn.mode() == 'n' then
        if vim.loop.now() - started > 500 then  -- CompleteDone's own edits, if any, are in by now
          phase = 'done'
          timer:stop()
          step('line', vim.api.nvim_get_current_line())
          step('buffer', buffer_text(bufnr))
          finish()
        end
      end
    end)
    if not ok then
      timer:stop()
      result.error = tostring(err)
      finish()
    end
  end))
  return 'async'
end

--- vim.lsp.buf.rename(plan.new_name) with the cursor at plan.at ({line, col}, 0-based bytes).
function scenarios.rename(bufnr, uri)
  cursor_at_plan(bufnr, uri)
  local tick = vim.api.nvim_buf_get_changedtick(bufnr)
  vim.lsp.buf.rename(plan.new_name)
  vim.wait(TIMEOUT, function()
    return vim.api.nvim_buf_get_changedtick(bufnr) ~= tick
  end, 20)
  step('buffer', buffer_text(bufnr))
end

--- `K` in normal mode at plan.at (Neovim maps it to the hover from 0.10; before, the user calls
--- vim.lsp.buf.hover()): the text of the floating window the hover opens.
function scenarios.hover(bufnr, uri)
  cursor_at_plan(bufnr, uri)
  if vim.fn.has('nvim-0.10') == 1 then
    vim.api.nvim_feedkeys('K', 'mx', false)
  else
    vim.lsp.buf.hover()
  end
  local float
  vim.wait(TIMEOUT, function()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(win).relative ~= '' then
        float = win
        return true
      end
    end
    return false
  end, 20)
  step('hover', float and table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false), '\n') or vim.NIL)
end

--- Each of plan.others opened in turn after the plan's file: its file type and whether the server
--- attached.
function scenarios.kinds(bufnr)
  local seen = { { filetype = vim.bo[bufnr].filetype, attached = client_of(bufnr) ~= nil } }
  for _, path in ipairs(plan.others) do
    vim.cmd('edit ' .. vim.fn.fnameescape(path))
    local other = vim.api.nvim_get_current_buf()
    table.insert(seen, { filetype = vim.bo[other].filetype, attached = client_of(other) ~= nil })
  end
  step('kinds', seen)
end

--- Neovim's default LSP key maps in a grooph buffer (0.11+: grn, gra, grr, gri, grt, gO, K, ...).
function scenarios.keys(bufnr)
  local client = client_of(bufnr)
  step('attached', client ~= nil)
  step('filetype', vim.bo[bufnr].filetype)
  local maps = {}
  for _, lhs in ipairs(plan.keys) do
    local mode = lhs:sub(1, 2) == 'i:' and 'i' or (lhs:sub(1, 2) == 'x:' and 'x' or 'n')
    local key = lhs:gsub('^[ix]:', '')
    local map = vim.fn.maparg(key, mode, false, true)
    maps[lhs] = map.desc or map.rhs or (map.callback and 'lua') or ''
  end
  step('maps', maps)
  local caps = client and client.server_capabilities or {}
  local provides = {}
  for name, value in pairs(caps) do
    if value ~= false and value ~= vim.NIL then
      table.insert(provides, name)
    end
  end
  table.sort(provides)
  step('provides', provides)
end

-- plan.pretend_below = '0.11' makes the plugin take its 0.8-0.10 branch (vim.lsp.start) on a newer
-- Neovim, so that branch is exercised where only a newer build is at hand.
if plan.pretend_below and plan.pretend_below ~= vim.NIL then
  local real_has = vim.fn.has
  local hidden = {}
  for _, v in ipairs({ '0.11', '0.12', '0.13' }) do
    if vim.version.lt and not vim.version.lt(v, plan.pretend_below) then
      hidden['nvim-' .. v] = true
    end
  end
  vim.fn.has = function(feature)
    if hidden[feature] then
      return 0
    end
    return real_has(feature)
  end
end

local ok, err = xpcall(function()
  if not plan.plain then  -- plain: the user's init file (-u) is the whole setup
    require('grooph').setup(plan.setup)
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(plan.file))
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  step('uri', uri)
  return scenarios[plan.scenario](bufnr, uri)
end, debug.traceback)
if not ok then
  result.error = err
  finish()
elseif err ~= 'async' then
  finish()
end
