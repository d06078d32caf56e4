"""The workspace: every grooph document under the editor's folders, not just the open ones (issue 17),
and every workflow, board and episode record (the neighbouring formats of kinds.NEIGHBOURS, issue 15).

`gitignore` (which files git ignores), `discover` (which files are grooph documents), `index` (checking
them and the cross-file questions), `facts` (what is kept per document), `links` (maps → graphs),
`symbol_search` (workspace/symbol ranking), `lenses` (code lens text).
"""
