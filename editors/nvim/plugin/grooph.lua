-- File types for every grooph kind (grooph, grooph-map, grooph-workflow, grooph-board,
-- grooph-episodes) as soon as editors/nvim is on the runtime path, so that lsp/grooph.lua's
-- `vim.lsp.enable('grooph')` attaches without setup{} (Neovim calls a *.grooph.json `json`).
if vim.g.loaded_grooph then
  return
end
vim.g.loaded_grooph = true
require('grooph').filetypes_setup()
