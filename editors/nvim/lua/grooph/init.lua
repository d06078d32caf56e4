-- grooph for Neovim: file types, the grooph-lsp language server, format on save and :GroophPreview.
--
--   require('grooph').setup{}
--
-- Works on Neovim 0.7 and newer: vim.lsp.config/vim.lsp.enable on 0.11+, vim.lsp.start on 0.8-0.10,
-- vim.lsp.start_client + vim.lsp.buf_attach_client on 0.7.

local M = {}

M.filetypes = { 'grooph', 'grooph-map', 'grooph-workflow', 'grooph-board', 'grooph-episodes' }

local defaults = {
  -- The language server command (program and arguments), e.g. { 'python3', '-m', 'grooph_lsp' }.
  cmd = { 'grooph-lsp' },
  -- The grooph command line, which draws the picture for :GroophPreview.
  grooph_cmd = { 'grooph' },
  -- The `grooph` settings section the server reads (workspace/configuration and initializationOptions).
  settings = { complete = false, debounceMs = 150, preview = { theme = 'auto' } },
  -- Format with the server before each :write of a grooph document.
  format_on_save = true,
  format_timeout_ms = 3000,
  -- Files or folders that mark the project root the server is started for.
  root_markers = { '.git' },
  preview = {
    -- 'svg' (any browser shows it) or 'png' (image viewers; the server's package ships the renderer).
    format = 'svg',
    -- 'light' | 'dark' | 'auto'; nil takes settings.preview.theme. 'auto' on a PNG follows 'background'.
    theme = nil,
    -- How to show the file: nil = the system viewer; a list (the path is appended) or a function(path).
    open = nil,
  },
  -- Called with (client, bufnr) when the server attaches to a buffer.
  on_attach = nil,
  capabilities = nil,
}

M.config = vim.deepcopy(defaults)

--- The defaults, for lsp/grooph.lua (the configuration `vim.lsp.enable('grooph')` takes on 0.11+).
function M.defaults()
  return vim.deepcopy(defaults)
end

local function has(version)
  return vim.fn.has('nvim-' .. version) == 1
end

--- A list option replaces the default whole (vim.tbl_deep_extend would merge lists by index).
local LIST_OPTIONS = { 'cmd', 'grooph_cmd', 'root_markers' }

local function merge_config(opts)
  opts = opts or {}
  local config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts)
  for _, key in ipairs(LIST_OPTIONS) do
    if opts[key] ~= nil then
      config[key] = vim.deepcopy(opts[key])
    end
  end
  if opts.preview and opts.preview.open ~= nil then
    config.preview.open = opts.preview.open
  end
  if type(config.cmd) == 'string' then
    config.cmd = { config.cmd }
  end
  if type(config.grooph_cmd) == 'string' then
    config.grooph_cmd = { config.grooph_cmd }
  end
  return config
end

local function notify(message, level)
  vim.notify('grooph: ' .. message, level or vim.log.levels.INFO)
end

---------------------------------------------------------------------------------------------------
-- File types

--- The grooph file type a path has by its name, or nil.
function M.filetype_of(path)
  local name = (path or ''):lower()
  if name:match('%.grooph%-map%.json$') then
    return 'grooph-map'
  end
  if name:match('%.grooph%.json$') then
    return 'grooph'
  end
  if name:match('%.workflow%.yaml$') then
    return 'grooph-workflow'
  end
  if name:match('%.board%.json$') then
    return 'grooph-board'
  end
  if name:match('%.episodes%.json$') then
    return 'grooph-episodes'
  end
  return nil
end

local group = vim.api.nvim_create_augroup('grooph', { clear = true })

--- Makes the options that decide the bytes on disk, other than the final newline, those of the
--- canonical form (UTF-8, LF, no byte-order mark; graph.md §6.1); returns what changed.
local function canonical_byte_options(bufnr)
  local bo = vim.bo[bufnr]
  local changed = {}
  if bo.fileformat ~= 'unix' then
    table.insert(changed, ('line endings %s → LF'):format(bo.fileformat == 'dos' and 'CRLF' or 'CR'))
    bo.fileformat = 'unix'
  end
  if bo.bomb then
    table.insert(changed, 'byte-order mark removed')
    bo.bomb = false
  end
  if bo.fileencoding ~= '' and bo.fileencoding ~= 'utf-8' then
    table.insert(changed, ('encoding %s → UTF-8'):format(bo.fileencoding))
    bo.fileencoding = 'utf-8'
  end
  return changed
end

--- File types of every kind by name, and their buffer options. Run by plugin/grooph.lua when the
--- plugin is on the runtime path (so `vim.lsp.enable('grooph')` alone finds its buffers) and by
--- setup{}; running it again replaces what it set up (its own autocommand group).
function M.filetypes_setup()
  local ft_group = vim.api.nvim_create_augroup('grooph_filetypes', { clear = true })
  if vim.filetype and vim.filetype.add then
    -- Used by filetype.lua (the default from 0.8; on 0.7 only with g:do_filetype_lua).
    vim.filetype.add({
      pattern = {
        ['.*%.grooph%.json'] = 'grooph',
        ['.*%.grooph%-map%.json'] = 'grooph-map',
        ['.*%.GROOPH%.JSON'] = 'grooph',
        ['.*%.GROOPH%-MAP%.JSON'] = 'grooph-map',
        ['.*%.workflow%.yaml'] = 'grooph-workflow',
        ['.*%.board%.json'] = 'grooph-board',
        ['.*%.episodes%.json'] = 'grooph-episodes',
      },
    })
  end
  if not has('0.8') then
    -- filetype.vim says `json` for these; setting the option wins over its later :setfiletype.
    vim.api.nvim_create_autocmd({ 'BufNewFile', 'BufRead' }, {
      group = ft_group,
      pattern = { '*.grooph.json', '*.grooph-map.json', '*.workflow.yaml', '*.board.json', '*.episodes.json' },
      callback = function(args)
        local ft = M.filetype_of(vim.api.nvim_buf_get_name(args.buf))
        if ft and vim.bo[args.buf].filetype ~= ft then
          vim.bo[args.buf].filetype = ft
        end
      end,
    })
  end
  if vim.treesitter and vim.treesitter.language and vim.treesitter.language.register then
    pcall(vim.treesitter.language.register, 'json', { 'grooph', 'grooph-map', 'grooph-board', 'grooph-episodes' })
    pcall(vim.treesitter.language.register, 'yaml', { 'grooph-workflow' })
  end
  vim.api.nvim_create_autocmd('FileType', {
    group = ft_group,
    pattern = M.filetypes,
    callback = function(args)
      local bo = vim.bo[args.buf]
      -- A grooph document is JSON; the canonical form indents by two spaces.
      -- A board workflow is YAML (issue 15).
      if bo.syntax == '' or bo.syntax == bo.filetype then
        bo.syntax = bo.filetype == 'grooph-workflow' and 'yaml' or 'json'
      end
      bo.expandtab = true
      bo.shiftwidth = 2
      bo.tabstop = 2
      bo.softtabstop = 2
      if not M.configured and bo.filetype ~= 'grooph-workflow' then
        M.canonical_bytes(args.buf)
      end
    end,
  })
end

--- Without setup{} (`vim.lsp.enable('grooph')` alone), a JSON kind's buffer is written as the
--- canonical form's bytes are (graph.md §6.1: UTF-8, LF, no byte-order mark), which Neovim keeps in
--- options the server cannot change: set as the file is opened (the buffer is then modified), so
--- that `vim.lsp.buf.format` and :w give `grooph fmt`'s bytes. setup{} does it on save instead.
function M.canonical_bytes(bufnr)
  local changed = canonical_byte_options(bufnr)
  if #changed > 0 then
    notify(('%s will be saved in the canonical form (graph.md §6.1): %s.'):format(
      vim.fn.fnamemodify(vim.api.nvim_buf_get_name(bufnr), ':t'), table.concat(changed, ', ')))
  end
  return changed
end

--- client.request_sync, called as 0.11 wants it (a method) and as 0.7-0.10 have it.
local function request_sync(client, method, params, timeout, bufnr)
  if has('0.11') then
    return client:request_sync(method, params, timeout, bufnr)
  end
  return client.request_sync(method, params, timeout, bufnr)
end

---------------------------------------------------------------------------------------------------
-- The bytes on disk: what Neovim keeps in options rather than in the text

-- The canonical form is UTF-8 with LF line endings and exactly one final newline (graph.md §6.1);
-- a byte-order mark is not JSON (graph.md §8). Neovim holds these in 'fileencoding', 'fileformat',
-- 'bomb' and 'eol', outside the text the server sees, so the plugin looks after them itself.
local file_ns = vim.api.nvim_create_namespace('grooph.file')

--- What `grooph validate` says about this buffer's bytes that the server cannot see: a byte-order
--- mark, or an encoding other than UTF-8 (each as a diagnostic on the first character).
function M.file_problems(bufnr)
  local bo = vim.bo[bufnr]
  local problems = {}
  local fix = M.config.format_on_save and 'saving (format on save)' or '`:set nobomb` and saving'
  if bo.bomb then
    table.insert(problems, 'not valid JSON: a byte-order mark (U+FEFF) at the start is not JSON. '
      .. "Neovim hides it ('bomb' is set) and `grooph validate` rejects the file; " .. fix .. ' removes it.')
  end
  local fenc = bo.fileencoding
  if fenc ~= '' and fenc ~= 'utf-8' and fenc ~= 'utf8' then
    fix = M.config.format_on_save and 'saving (format on save)' or '`:set fileencoding=utf-8` and saving'
    table.insert(problems, ('not valid JSON: the file is not UTF-8 text (Neovim read it as %s) and '
      .. '`grooph validate` rejects it; %s writes it as UTF-8.'):format(fenc, fix))
  end
  return problems
end

--- Shows (or clears) the diagnostics of M.file_problems in the plugin's own namespace.
function M.check_file(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  local diagnostics = {}
  for _, message in ipairs(M.file_problems(bufnr)) do
    table.insert(diagnostics, {
      lnum = 0, col = 0, end_lnum = 0, end_col = 0,
      severity = vim.diagnostic.severity.ERROR,
      source = 'grooph', code = 'E_SYNTAX', message = message,
    })
  end
  vim.diagnostic.set(file_ns, bufnr, diagnostics)
end

--- Makes the options that decide the bytes on disk those of the canonical form; returns what changed.
local function canonical_file_options(bufnr)
  local bo = vim.bo[bufnr]
  local changed = {}
  -- The text ends with one newline, which Neovim keeps in 'endofline'. The server's edit for a buffer
  -- read without one ('noeol') ends past its last line, so Neovim does not make it an empty last line
  -- (then :write would give `}\n\n`); such a line is dropped here all the same.
  local count = vim.api.nvim_buf_line_count(bufnr)
  if not bo.eol and count > 1 and vim.api.nvim_buf_get_lines(bufnr, count - 1, count, false)[1] == '' then
    vim.api.nvim_buf_set_lines(bufnr, count - 1, count, false, {})
  end
  bo.eol = true
  vim.list_extend(changed, canonical_byte_options(bufnr))
  return changed
end

---------------------------------------------------------------------------------------------------
-- Completion with <C-x><C-o>

-- Neovim's vim.lsp.omnifunc (every version) puts an item's text at the cursor: it ignores the range the
-- server replaces (between the quotes of `"to": ""` that gave `""plan""`) and the comma the item adds
-- elsewhere (additionalTextEdits). This 'omnifunc' lets Neovim show the menu, then applies the
-- accepted item as the server wrote it.
local completion_state = {}

local function byte_col(line, character, encoding)
  if encoding == 'utf-8' then
    return math.min(character, #line)
  end
  local ok, col = pcall(vim.str_byteindex, line, character, encoding == 'utf-16')
  return ok and col or #line
end

function M.omnifunc(findstart, base)
  local bufnr = vim.api.nvim_get_current_buf()
  if findstart == 1 then
    completion_state[bufnr] = nil
    local client = M.client_for(bufnr)
    if not client then
      return -3
    end
    local encoding = client.offset_encoding or 'utf-16'
    local cursor = vim.api.nvim_win_get_cursor(0)
    local row, col = cursor[1] - 1, cursor[2]
    local line = vim.api.nvim_get_current_line()
    local params = vim.lsp.util.make_position_params(0, encoding)
    local response = request_sync(client, 'textDocument/completion', params, M.config.format_timeout_ms, bufnr)
    local result = response and response.result
    local items = type(result) == 'table' and (result.items or result) or {}
    local entries, start = {}, col
    for _, item in ipairs(items) do
      local edit = item.textEdit
      local entry = { item = item, s = col, e = col, text = item.insertText or item.label }
      if edit and edit.range and edit.range.start.line == row and edit.range['end'].line == row then
        entry.s = byte_col(line, edit.range.start.character, encoding)
        entry.e = byte_col(line, edit.range['end'].character, encoding)
        entry.text = edit.newText
      end
      if entry.s <= col and entry.e >= col then
        start = math.min(start, entry.s)
        table.insert(entries, entry)
      end
    end
    completion_state[bufnr] = {
      client_id = client.id, row = row, col = col, start = start, line = line, entries = entries,
      position = params.position, -- the cursor in the client's encoding: where an item without a range goes
    }
    return start
  end
  local state = completion_state[bufnr]
  local words = {}
  for i, entry in ipairs(state and state.entries or {}) do
    local filter = entry.item.filterText or entry.item.label
    if base == '' or vim.startswith(entry.text, base) or vim.startswith(filter, (base:gsub('^"', ''))) then
      local doc = entry.item.documentation
      table.insert(words, {
        word = entry.text,
        abbr = entry.item.label,
        menu = entry.item.detail or '',
        info = type(doc) == 'table' and doc.value or doc or '',
        icase = 1,
        dup = 1,
        empty = 1,
        user_data = 'grooph:' .. i,
      })
    end
  end
  return words
end

--- After an item of M.omnifunc is accepted: the line back as it was, then the server's edit and its
--- additional edits (a comma) in the positions they were given for, and the cursor after the item.
local function on_complete_done(bufnr)
  local item = vim.v.completed_item
  local state = completion_state[bufnr]
  local index = type(item) == 'table' and type(item.user_data) == 'string' and tonumber(item.user_data:match('^grooph:(%d+)$'))
  if not (state and index and state.entries[index]) then
    return
  end
  completion_state[bufnr] = nil
  local entry = state.entries[index]
  local client = vim.lsp.get_client_by_id(state.client_id)
  local line = vim.api.nvim_buf_get_lines(bufnr, state.row, state.row + 1, false)[1] or ''
  local typed = entry.text
  if line:sub(state.start + 1, state.start + #typed) ~= typed then
    return -- the line is not what accepting the item gave: leave it to the user
  end
  vim.api.nvim_buf_set_text(bufnr, state.row, state.start, state.row, state.start + #typed,
    { state.line:sub(state.start + 1, state.col) })
  local encoding = client and client.offset_encoding or 'utf-16'
  local edits = {}
  if entry.item.textEdit then
    table.insert(edits, entry.item.textEdit)
  else
    table.insert(edits, { range = { start = state.position, ['end'] = state.position }, newText = entry.text })
  end
  vim.list_extend(edits, entry.item.additionalTextEdits or {})
  local mark_ns = vim.api.nvim_create_namespace('grooph.complete')
  local mark = vim.api.nvim_buf_set_extmark(bufnr, mark_ns, state.row, entry.e, {})
  vim.lsp.util.apply_text_edits(edits, bufnr, encoding)
  local pos = vim.api.nvim_buf_get_extmark_by_id(bufnr, mark_ns, mark, {})
  vim.api.nvim_buf_del_extmark(bufnr, mark_ns, mark)
  if pos and pos[1] and vim.api.nvim_get_current_buf() == bufnr then
    vim.api.nvim_win_set_cursor(0, { pos[1] + 1, pos[2] })
  end
end

---------------------------------------------------------------------------------------------------
-- Format on save

--- Formats a buffer with the grooph server only (other servers attached to it are not asked), and
--- makes the file's bytes canonical: UTF-8, LF, one final newline, no byte-order mark. Returns true
--- when the buffer now holds the canonical form.
function M.format(bufnr, client)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  client = client or M.client_for(bufnr)
  if not client then
    return false
  end
  local done = false
  vim.api.nvim_buf_call(bufnr, function()
    local params = vim.lsp.util.make_formatting_params({})
    local response, err = request_sync(client, 'textDocument/formatting', params, M.config.format_timeout_ms, bufnr)
    if err then
      notify('formatting failed: ' .. tostring(err), vim.log.levels.WARN)
    elseif response and response.err then
      notify('formatting failed: ' .. tostring(response.err.message or response.err), vim.log.levels.WARN)
    elseif response and type(response.result) == 'table' then
      -- (a null result is a refusal: the server has said why, and nothing is changed)
      if #response.result > 0 then
        vim.lsp.util.apply_text_edits(response.result, bufnr, client.offset_encoding or 'utf-16')
      end
      local changed = canonical_file_options(bufnr)
      if #changed > 0 then
        notify('saved in the canonical form (graph.md §6.1): ' .. table.concat(changed, ', ') .. '.')
      end
      done = true
    end
  end)
  return done
end

local function enable_format_on_save(client, bufnr)
  local name = 'grooph_format_' .. bufnr
  local augroup = vim.api.nvim_create_augroup(name, { clear = true })
  vim.api.nvim_create_autocmd('BufWritePre', {
    group = augroup,
    buffer = bufnr,
    callback = function()
      -- A workflow is not formatted (YAML has no canonical form; the server would say so).
      if M.config.format_on_save and vim.bo[bufnr].filetype ~= 'grooph-workflow' and vim.lsp.get_client_by_id(client.id) then
        M.format(bufnr, vim.lsp.get_client_by_id(client.id))
      end
    end,
  })
  vim.api.nvim_create_autocmd('BufWritePost', {
    group = augroup,
    buffer = bufnr,
    callback = function()
      M.check_file(bufnr)
    end,
  })
  vim.api.nvim_create_autocmd('CompleteDone', {
    group = augroup,
    buffer = bufnr,
    callback = function()
      vim.schedule(function()
        on_complete_done(bufnr)
      end)
    end,
  })
  vim.api.nvim_create_autocmd('OptionSet', {
    group = augroup,
    pattern = { 'bomb', 'fileencoding' },
    callback = function()
      if vim.api.nvim_get_current_buf() == bufnr then
        M.check_file(bufnr)
      end
    end,
  })
end

local function on_attach(client, bufnr)
  enable_format_on_save(client, bufnr)
  M.check_file(bufnr)
  -- Completion with <C-x><C-o> (M.omnifunc); nvim-cmp users need nothing here.
  if vim.bo[bufnr].omnifunc == '' or vim.bo[bufnr].omnifunc == 'v:lua.vim.lsp.omnifunc' then
    vim.bo[bufnr].omnifunc = "v:lua.require'grooph'.omnifunc"
  end
  if type(M.config.on_attach) == 'function' then
    M.config.on_attach(client, bufnr)
  end
end

---------------------------------------------------------------------------------------------------
-- window/showDocument on 0.7

--- Neovim 0.8+ shows a document (and puts the cursor on its selection) itself; 0.7 has no handler,
--- so the cursor never reached the blank a fill-in quick fix inserted (grooph.revealFill).
function M.show_document(_, params, ctx)
  if type(params) ~= 'table' or type(params.uri) ~= 'string' then
    return { success = false }
  end
  if params.external then
    -- the live picture's page (grooph.preview), opened in the browser as 0.10+ opens it
    if not params.uri:match('^http://127%.0%.0%.1:%d+/') then
      return { success = false }
    end
    require('grooph.preview').open(params.uri, M.config.preview.open)
    return { success = true }
  end
  local client = ctx and vim.lsp.get_client_by_id(ctx.client_id)
  local bufnr = vim.uri_to_bufnr(params.uri)
  vim.fn.bufload(bufnr)
  local win
  for _, w in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(w) == bufnr then
      win = w
      break
    end
  end
  if params.takeFocus then
    if win then
      vim.api.nvim_set_current_win(win)
    else
      vim.api.nvim_win_set_buf(0, bufnr)
      win = vim.api.nvim_get_current_win()
    end
  end
  local start = params.selection and params.selection.start
  if win and start then
    local line = vim.api.nvim_buf_get_lines(bufnr, start.line, start.line + 1, false)[1] or ''
    local encoding = client and client.offset_encoding or 'utf-16'
    local col = start.character
    if encoding ~= 'utf-8' then
      local ok, byte = pcall(vim.str_byteindex, line, start.character, encoding == 'utf-16')
      col = ok and byte or #line
    end
    vim.api.nvim_win_set_cursor(win, { start.line + 1, math.min(col, #line) })
  end
  return { success = true }
end

---------------------------------------------------------------------------------------------------
-- Starting the server

local uv = vim.loop or vim.uv

--- The project root of a file: the nearest folder upward holding a root marker, else the file's folder.
function M.find_root(path, markers)
  local dir = vim.fn.fnamemodify(path ~= '' and path or vim.fn.getcwd(), ':p:h')
  local current = dir
  while current and current ~= '' do
    for _, marker in ipairs(markers or {}) do
      if uv.fs_stat(current .. '/' .. marker) then
        return current
      end
    end
    local parent = vim.fn.fnamemodify(current, ':h')
    if parent == current then
      break
    end
    current = parent
  end
  return dir
end

local function lsp_config(root_dir)
  local config = {
    name = 'grooph',
    cmd = M.config.cmd,
    settings = { grooph = M.config.settings },
    init_options = M.config.settings,
    on_attach = on_attach,
    capabilities = M.config.capabilities,
  }
  if not has('0.8') then
    -- 0.7 says it cannot show documents; the plugin can (M.show_document).
    config.capabilities = vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(),
      { window = { showDocument = { support = true } } }, M.config.capabilities or {})
    config.handlers = { ['window/showDocument'] = M.show_document }
  end
  if root_dir then
    config.root_dir = root_dir
    config.workspace_folders = { { uri = vim.uri_from_fname(root_dir), name = root_dir } }
  end
  return config
end

local warned_missing = false

local function server_available()
  if vim.fn.executable(M.config.cmd[1]) == 1 then
    return true
  end
  if not warned_missing then
    warned_missing = true
    notify(
      ('the language server %q was not found. It is not on PyPI: install it from a checkout of '
        .. 'grooph-lsp with `pipx install /path/to/grooph-lsp` (or `pip install /path/to/grooph-lsp` into a '
        .. "virtual environment), or pass cmd = { '/path/to/venv/bin/grooph-lsp' } to setup{}. "
        .. 'See docs/editors.md, "Install the server".'):format(M.config.cmd[1]),
      vim.log.levels.WARN
    )
  end
  return false
end

-- 0.7: one client per root, started by hand and attached to each buffer.
local clients_by_root = {}

local function attach_07(bufnr)
  local root = M.find_root(vim.api.nvim_buf_get_name(bufnr), M.config.root_markers)
  local id = clients_by_root[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(lsp_config(root))
    if not id then
      notify('the language server did not start: ' .. table.concat(M.config.cmd, ' '), vim.log.levels.ERROR)
      return
    end
    clients_by_root[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
end

local function attach_08(bufnr)
  local root = M.find_root(vim.api.nvim_buf_get_name(bufnr), M.config.root_markers)
  vim.lsp.start(lsp_config(root), { bufnr = bufnr })
end

local function attach(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or not server_available() then
    return
  end
  if has('0.8') then
    attach_08(bufnr)
  else
    attach_07(bufnr)
  end
end

--- How setup started the server on this Neovim: 'vim.lsp.enable', 'vim.lsp.start' or 'vim.lsp.start_client'.
M.start_method = nil

local function start_server()
  if has('0.11') and vim.lsp.config and vim.lsp.enable then
    M.start_method = 'vim.lsp.enable'
    local config = lsp_config(nil)
    config.name = nil
    config.filetypes = M.filetypes
    config.root_markers = M.config.root_markers
    vim.lsp.config('grooph', config)
    if server_available() then
      vim.lsp.enable('grooph')
    end
    return
  end
  M.start_method = has('0.8') and 'vim.lsp.start' or 'vim.lsp.start_client'
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.filetypes,
    callback = function(args)
      attach(args.buf)
    end,
  })
end

--- The running grooph client attached to a buffer, or nil.
function M.client_for(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local list = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr, name = 'grooph' })
    or vim.lsp.buf_get_clients(bufnr)
  for _, client in pairs(list) do
    if client.name == 'grooph' then
      return client
    end
  end
  return nil
end

---------------------------------------------------------------------------------------------------
-- Setup

function M.setup(opts)
  M.config = merge_config(opts)
  M.configured = true
  group = vim.api.nvim_create_augroup('grooph', { clear = true })
  M.filetypes_setup()
  start_server()

  pcall(vim.api.nvim_del_user_command, 'GroophPreview')
  vim.api.nvim_create_user_command('GroophPreview', function(command)
    require('grooph.preview').run(0, command.args ~= '' and command.args or nil)
  end, {
    nargs = '?',
    complete = function()
      return { 'wide', 'sequence' }
    end,
    desc = 'Draw the grooph picture of this document and open it in the system viewer',
  })

  -- Buffers opened before setup (lazy loading): give them their file type, which starts the server.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) then
      local ft = M.filetype_of(vim.api.nvim_buf_get_name(bufnr))
      if ft and vim.bo[bufnr].filetype ~= ft then
        vim.bo[bufnr].filetype = ft
      elseif ft and not has('0.11') then
        attach(bufnr)
      end
    end
  end
  return M
end

return M
