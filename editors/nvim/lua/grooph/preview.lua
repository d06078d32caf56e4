-- :GroophPreview: the live picture. The server's `grooph.preview` serves the buffer's picture on a
-- page of its own on 127.0.0.1 (a secret token in the address) that redraws as you type, and asks
-- Neovim to open it in the browser (window/showDocument, 0.10+); where Neovim cannot, the plugin opens
-- the address itself and always says it. Without a running server (or with `preview = { live = false }`)
-- it draws the picture once with `grooph image` into a temporary file and opens that with the viewer.
-- Only these programs ever run, each with an argument list (no shell), and nothing a document names
-- (a check's `run` is text to grooph, never a command here).

local M = {}

local function notify(message, level)
  vim.notify('grooph: ' .. message, level or vim.log.levels.INFO)
end

local VIEWS = { wide = { '--layout', 'wide' }, sequence = { '--view', 'sequence' } }

--- The theme to ask for: the configured one; 'auto' on a PNG (one palette only) follows 'background'.
function M.theme(config, format)
  local theme = config.preview.theme or (config.settings.preview or {}).theme or 'auto'
  if theme ~= 'light' and theme ~= 'dark' and theme ~= 'auto' then
    theme = 'auto'
  end
  if theme == 'auto' and format == 'png' then
    theme = vim.o.background == 'dark' and 'dark' or 'light'
  end
  return theme
end

--- The `grooph image` argument list (cli.md §3.1) for a source file, an output file and a view.
function M.image_args(config, source, out, view)
  local format = config.preview.format == 'png' and 'png' or 'svg'
  local args = vim.deepcopy(config.grooph_cmd)
  vim.list_extend(args, { 'image', source, '--out', out, '--theme', M.theme(config, format) })
  if view then
    vim.list_extend(args, VIEWS[view])
  end
  return args
end

--- The file `grooph image` reads: the file itself when the buffer is saved, else a copy of the
--- buffer's text in a temporary folder under the same name (the suffix tells graph from map).
local function source_file(bufnr, filetype)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name ~= '' and not vim.bo[bufnr].modified and vim.fn.filereadable(name) == 1 then
    return name, nil
  end
  local base = name ~= '' and vim.fn.fnamemodify(name, ':t')
    or (filetype == 'grooph-map' and 'untitled.grooph-map.json' or 'untitled.grooph.json')
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  local copy = dir .. '/' .. base
  local lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  if vim.fn.writefile(lines, copy) ~= 0 then
    return nil, 'could not write ' .. copy
  end
  return copy, dir
end

--- Opens a file or an address with the configured viewer, else the system's.
function M.open(path, open)
  if type(open) == 'function' then
    return open(path)
  end
  local command
  if type(open) == 'table' then
    command = vim.deepcopy(open)
    table.insert(command, path)
  elseif vim.ui and vim.ui.open then
    local _, err = vim.ui.open(path)
    if err then
      notify(('%s could not be opened: %s'):format(path, err), vim.log.levels.WARN)
    end
    return
  elseif vim.fn.has('mac') == 1 then
    command = { 'open', path }
  elseif vim.fn.has('win32') == 1 then
    command = { 'cmd.exe', '/c', 'start', '', path }
  elseif vim.fn.executable('xdg-open') == 1 then
    command = { 'xdg-open', path }
  else
    notify(('no viewer found for %s (set preview.open in setup{})'):format(path), vim.log.levels.WARN)
    return
  end
  if vim.fn.jobstart(command, { detach = true }) <= 0 then
    notify(('%s could not be opened: %s could not be started'):format(path, command[1]), vim.log.levels.WARN)
  end
end

--- Whether this Neovim tells servers it opens documents they ask it to show (0.10+ does).
local function shows_documents(client)
  local caps = client.config and client.config.capabilities
    or vim.lsp.protocol.make_client_capabilities()
  local window = caps and caps.window
  return window ~= nil and window.showDocument ~= nil and window.showDocument.support == true
end

--- Runs `grooph.preview` on the server: it serves the live page and asks Neovim to open it; where
--- Neovim cannot (0.7-0.9), the address is opened here. The address is said either way.
local function live(client, bufnr, view, on_done, fail)
  local params = { command = 'grooph.preview', arguments = { vim.uri_from_bufnr(bufnr), view or vim.NIL } }
  local function handler(err, result)
    vim.schedule(function()
      if err or type(result) ~= 'table' or type(result.url) ~= 'string' then
        return fail(err and (err.message or tostring(err)) or 'the server gave no address for the live picture')
      end
      if not shows_documents(client) then
        M.open(result.url, require('grooph').config.preview.open)
      end
      notify('the live picture is at ' .. result.url)
      on_done(result.url, nil)
    end)
  end
  if vim.fn.has('nvim-0.11') == 1 then
    client:request('workspace/executeCommand', params, handler, bufnr)
  else
    client.request('workspace/executeCommand', params, handler, bufnr)
  end
end

--- Shows buffer `bufnr` (0 = current) in `view` (nil, 'wide' or 'sequence'): the live page when the
--- server runs, else a picture file. `on_done(url_or_path_or_nil, error_or_nil)` is called when it is
--- finished (tests wait for it).
function M.run(bufnr, view, on_done)
  local grooph = require('grooph')
  local config = grooph.config
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  on_done = on_done or function() end
  local function fail(message)
    notify(message, vim.log.levels.ERROR)
    on_done(nil, message)
  end

  local filetype = vim.bo[bufnr].filetype
  local client = config.preview.live ~= false and grooph.client_for(bufnr) or nil
  local drawn = filetype == 'grooph' or filetype == 'grooph-map' or (client ~= nil and filetype == 'grooph-workflow')
  if not drawn then
    return fail('this buffer is not a grooph document (*.grooph.json or *.grooph-map.json) or a workflow')
  end
  if view ~= nil and not VIEWS[view] then
    return fail(('unknown view %q: use wide or sequence (maps only), or no argument'):format(view))
  end
  if view ~= nil and filetype ~= 'grooph-map' then
    return fail('the wide and sequence views exist only for operation maps')
  end
  if client ~= nil then
    return live(client, bufnr, view, on_done, fail)
  end
  if vim.fn.executable(config.grooph_cmd[1]) ~= 1 then
    return fail(('%q was not found; install grooph-lsp (it brings the grooph command) or set grooph_cmd'):format(
      config.grooph_cmd[1]
    ))
  end

  local source, err = source_file(bufnr, filetype)
  if not source then
    return fail(err)
  end
  local format = config.preview.format == 'png' and 'png' or 'svg'
  local out = vim.fn.tempname() .. '.' .. format
  local stderr = {}
  local job = vim.fn.jobstart(M.image_args(config, source, out, view), {
    stderr_buffered = true,
    stdout_buffered = true,
    on_stderr = function(_, data)
      stderr = data or {}
    end,
    on_exit = function(_, code)
      vim.schedule(function()
        if code ~= 0 or vim.fn.filereadable(out) ~= 1 then
          local text = vim.trim(table.concat(stderr, '\n'))
          return fail(text ~= '' and text or ('grooph image failed (exit %d)'):format(code))
        end
        M.open(out, config.preview.open)
        on_done(out, nil)
      end)
    end,
  })
  if job <= 0 then
    fail('could not run ' .. config.grooph_cmd[1])
  end
end

return M
