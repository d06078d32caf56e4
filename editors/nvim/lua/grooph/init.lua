-- grooph for Neovim: file types, the grooph-lsp language server, format on save and :GroophPreview.
--
--   require('grooph').setup{}
--
-- Works on Neovim 0.7 and newer: vim.lsp.config/vim.lsp.enable on 0.11+, vim.lsp.start on 0.8-0.10,
-- vim.lsp.start_client + vim.lsp.buf_attach_client on 0.7.

local M = {}

M.filetypes = { 'grooph', 'grooph-map' }

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
  return nil
end

local group = vim.api.nvim_create_augroup('grooph', { clear = true })

local function detect_filetypes()
  if vim.filetype and vim.filetype.add then
    -- Used by filetype.lua (the default from 0.8; on 0.7 only with g:do_filetype_lua).
    vim.filetype.add({
      pattern = {
        ['.*%.grooph%.json'] = 'grooph',
        ['.*%.grooph%-map%.json'] = 'grooph-map',
        ['.*%.GROOPH%.JSON'] = 'grooph',
        ['.*%.GROOPH%-MAP%.JSON'] = 'grooph-map',
      },
    })
  end
  if not has('0.8') then
    -- filetype.vim says `json` for these; setting the option wins over its later :setfiletype.
    vim.api.nvim_create_autocmd({ 'BufNewFile', 'BufRead' }, {
      group = group,
      pattern = { '*.grooph.json', '*.grooph-map.json' },
      callback = function(args)
        local ft = M.filetype_of(vim.api.nvim_buf_get_name(args.buf))
        if ft and vim.bo[args.buf].filetype ~= ft then
          vim.bo[args.buf].filetype = ft
        end
      end,
    })
  end
end

local function setup_filetype_options()
  if vim.treesitter and vim.treesitter.language and vim.treesitter.language.register then
    pcall(vim.treesitter.language.register, 'json', M.filetypes)
  end
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.filetypes,
    callback = function(args)
      local bo = vim.bo[args.buf]
      -- A grooph document is JSON; the canonical form indents by two spaces.
      if bo.syntax == '' or bo.syntax == bo.filetype then
        bo.syntax = 'json'
      end
      bo.expandtab = true
      bo.shiftwidth = 2
      bo.tabstop = 2
      bo.softtabstop = 2
    end,
  })
end

---------------------------------------------------------------------------------------------------
-- Format on save

--- Formats a buffer with the grooph server only (other servers attached to it are not asked).
function M.format(bufnr, client)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  client = client or M.client_for(bufnr)
  if not client then
    return false
  end
  if has('0.8') then
    vim.lsp.buf.format({ bufnr = bufnr, id = client.id, async = false, timeout_ms = M.config.format_timeout_ms })
    return true
  end
  -- 0.7: formatting_sync asks every attached server (and prompts when there are several).
  local done = false
  vim.api.nvim_buf_call(bufnr, function()
    local params = vim.lsp.util.make_formatting_params({})
    local response, err = client.request_sync('textDocument/formatting', params, M.config.format_timeout_ms, bufnr)
    if err then
      notify('formatting failed: ' .. tostring(err), vim.log.levels.WARN)
    elseif response and response.err then
      notify('formatting failed: ' .. tostring(response.err.message or response.err), vim.log.levels.WARN)
    elseif response and response.result then
      vim.lsp.util.apply_text_edits(response.result, bufnr, client.offset_encoding or 'utf-16')
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
      if M.config.format_on_save and vim.lsp.get_client_by_id(client.id) then
        M.format(bufnr, vim.lsp.get_client_by_id(client.id))
      end
    end,
  })
end

local function on_attach(client, bufnr)
  enable_format_on_save(client, bufnr)
  if type(M.config.on_attach) == 'function' then
    M.config.on_attach(client, bufnr)
  end
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
      ('the language server %q was not found. Install it with `pip install grooph-lsp`, or pass '
        .. "cmd = { '/path/to/python', '-m', 'grooph_lsp' } to setup{}."):format(M.config.cmd[1]),
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
  group = vim.api.nvim_create_augroup('grooph', { clear = true })
  detect_filetypes()
  setup_filetype_options()
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
