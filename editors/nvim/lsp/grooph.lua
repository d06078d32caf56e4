-- grooph-lsp for Neovim 0.11+, found by `vim.lsp.enable('grooph')` on the runtime path (as
-- nvim-lspconfig's configurations are): with editors/nvim on 'runtimepath' (plugin/grooph.lua gives
-- every grooph kind its file type) that call alone is a complete setup. Change any field with
-- vim.lsp.config('grooph', { cmd = { '/path/to/grooph-lsp' } }). require('grooph').setup{} adds
-- format on save to `grooph fmt`'s bytes, :GroophPreview and Neovim 0.7-0.10 (docs/editors.md).
local grooph = require('grooph')
local defaults = grooph.defaults()

return {
  cmd = defaults.cmd,
  filetypes = grooph.filetypes,
  root_markers = defaults.root_markers,
  -- The `grooph` section, answered to workspace/configuration and sent as initializationOptions.
  settings = { grooph = defaults.settings },
  init_options = vim.deepcopy(defaults.settings),
}
