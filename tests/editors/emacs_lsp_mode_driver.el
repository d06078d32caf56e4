;;; emacs_lsp_mode_driver.el --- drive lsp-mode in `emacs --batch' for tests/editors/test_emacs_lsp_mode.py  -*- lexical-binding: t -*-

;; As emacs_driver.el does for eglot: the plan names the user's init file (docs/editors.md's lsp-mode
;; snippet), the file to visit and the scenario; the driver does what a user would (visit the file,
;; wait for Flymake's diagnostics, M-x lsp-execute-code-action RET, C-x C-s, M-x lsp-rename,
;; completion-at-point and a candidate chosen) and writes what the client really did, as JSON.

(load (expand-file-name "emacs_common.el" (file-name-directory load-file-name)) nil t)

(require 'seq)

(defvar grooph-published nil "(file count) of every publishDiagnostics lsp-mode received, newest first.")

(defun grooph-diagnostics ()
  "Flymake's diagnostics of the buffer as lsp-mode gave them: message, region, type (a vector)."
  (vconcat (mapcar (lambda (d)
                     `((message . ,(flymake-diagnostic-text d))
                       (type . ,(symbol-name (flymake-diagnostic-type d)))
                       (start . ,(grooph-line-col (flymake-diagnostic-beg d)))
                       (end . ,(grooph-line-col (flymake-diagnostic-end d)))))
                   (grooph-flymake-sorted))))

(defun grooph-codes ()
  "The codes of the LSP diagnostics lsp-mode holds for the buffer's file, in the server's order."
  (vconcat (mapcar (lambda (d) (lsp:diagnostic-code? d))
                   (gethash (lsp--fix-path-casing (buffer-file-name)) (lsp-diagnostics t)))))

(defun grooph-visit ()
  "Visit the plan's file; the command loop would then run `post-command-hook', where
`lsp-deferred' connects."
  (grooph-find-file)
  (grooph-wait "lsp-mode to connect"
               (lambda () (and (bound-and-true-p lsp-mode)
                               (lsp-workspaces)
                               (eq (lsp--workspace-status (car (lsp-workspaces))) 'initialized))))
  (grooph-note 'language_id (lsp-buffer-language)))

(defun grooph-wait-published ()
  (let ((file (lsp--fix-path-casing (buffer-file-name))))
    (grooph-wait "the server's diagnostics of the file" (lambda () (assoc file grooph-published)))))

(defun grooph-wait-diagnostics ()
  (grooph-wait "Flymake's diagnostics" (lambda () (flymake-diagnostics)))
  (grooph-note 'diagnostics (grooph-diagnostics))
  (grooph-note 'codes (grooph-codes)))

(defun grooph-quick-fix ()
  "M-x lsp-execute-code-action on the first diagnostic, RET on the first action offered."
  (goto-char (flymake-diagnostic-beg (car (grooph-flymake-sorted))))
  (let* ((offered nil)
         (completing-read-function
          (lambda (_prompt collection &rest _)
            (setq offered (all-completions "" collection))
            (car offered))))
    (call-interactively #'lsp-execute-code-action)
    (grooph-note 'actions (vconcat offered))))

(defun grooph-run ()
  ;; What Emacs does at start-up before the init file and `--batch' does not: the installed packages'
  ;; autoloads (lsp-mode starts its mode-line and headerline modes through them).
  (package-activate-all)
  (load (alist-get 'init grooph-plan) nil t)
  (advice-add 'lsp--on-diagnostics :before
              (lambda (_workspace params)
                (push (list (lsp--fix-path-casing (lsp--uri-to-path (gethash "uri" params)))
                            (length (gethash "diagnostics" params)))
                      grooph-published)))
  (grooph-visit)
  (pcase (alist-get 'scenario grooph-plan)
    ("quick-fix"
     (grooph-wait-diagnostics)
     (let ((published (length grooph-published)))
       (grooph-quick-fix)
       (grooph-note 'buffer (grooph-text))
       ;; The server's report of the repaired text, then Flymake showing it (the regions of the old
       ;; report move with the edit, so they differ before).
       (grooph-wait "the diagnostics of the repaired text"
                    (lambda () (and (> (length grooph-published) published)
                                    (= (length (flymake-diagnostics)) (length (grooph-codes)))))))
     (grooph-note 'after (grooph-diagnostics)))
    ("rename"
     (grooph-at-plan)
     (lsp-rename (alist-get 'new_name grooph-plan))
     (grooph-note 'buffer (grooph-text)))
    ("hover"
     (grooph-at-plan)
     (lsp-describe-thing-at-point)        ; M-x lsp-describe-thing-at-point: the *lsp-help* buffer
     (grooph-note 'hover (with-current-buffer "*lsp-help*" (buffer-substring-no-properties (point-min) (point-max)))))
    ("choose"
     (grooph-at-plan)
     (grooph-choose-completion (lsp-completion-at-point))
     (grooph-note 'line (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
     (grooph-note 'buffer (grooph-text)))
    (other (grooph-common-scenario other)))
  (grooph-finish))

(condition-case err
    (grooph-run)
  (error (grooph-finish (error-message-string err))))
