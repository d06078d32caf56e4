;;; emacs_driver.el --- drive eglot in `emacs --batch' for tests/editors/test_emacs.py  -*- lexical-binding: t -*-

;; The plan (JSON in $GROOPH_PLAN) names the user's init file (docs/editors.md's snippet), the file to
;; visit and the scenario; the driver does what a user would (visit the file, wait for Flymake's
;; diagnostics, M-x eglot-code-actions RET, C-x C-s, M-x eglot-rename, M-x completion-at-point) and
;; writes what the client really received and did, as JSON, to $GROOPH_RESULT.

(load (expand-file-name "emacs_common.el" (file-name-directory load-file-name)) nil t)

(require 'eglot)
(require 'seq)

(defvar grooph-published nil "(uri count) of every publishDiagnostics eglot received, newest first.")
(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest params)
              (when (eq method 'textDocument/publishDiagnostics)
                (push (list (plist-get params :uri) (length (plist-get params :diagnostics))) grooph-published))))

(defun grooph-diagnostics ()
  "Flymake's diagnostics of the buffer as eglot gave them: code, message, region, type (a vector: a
JSON array even when empty)."
  (vconcat (mapcar (lambda (d)
            (let ((lsp (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data d)))))
              `((code . ,(plist-get lsp :code))
                (message . ,(flymake-diagnostic-text d))
                (type . ,(symbol-name (flymake-diagnostic-type d)))
                (start . ,(grooph-line-col (flymake-diagnostic-beg d)))
                (end . ,(grooph-line-col (flymake-diagnostic-end d))))))
          (grooph-flymake-sorted))))

(defun grooph-visit ()
  "Visit the plan's file as a user does; the command loop would then run `post-command-hook', where
`eglot-ensure' connects."
  (grooph-find-file)
  (grooph-wait "eglot to manage the buffer" (lambda () (bound-and-true-p eglot--managed-mode)))
  (grooph-note 'language_id (eglot--language-id (eglot-current-server))))

(defun grooph-wait-published ()
  "Wait for the server's first diagnostics of the buffer (a clean file's are empty), as a user waits
to see the file checked before acting on it."
  (let ((uri (eglot--path-to-uri (buffer-file-name))))
    (grooph-wait "the server's diagnostics of the file" (lambda () (assoc uri grooph-published)))))

(defun grooph-wait-diagnostics ()
  (grooph-wait "Flymake's diagnostics" (lambda () (flymake-diagnostics)))
  (grooph-note 'diagnostics (grooph-diagnostics)))

(defun grooph-quick-fix ()
  "M-x eglot-code-actions RET on the first diagnostic: the default choice, the preferred action."
  (goto-char (flymake-diagnostic-beg (car (grooph-flymake-sorted))))
  (let* ((offered nil)
         (completing-read-function
          (lambda (_prompt collection &rest args)
            (setq offered (mapcar #'car collection))
            (nth 4 args)))                 ; DEF: what RET takes
         (last-nonmenu-event ?\r))       ; chosen from the keyboard, not a mouse menu
    (call-interactively #'eglot-code-actions)
    (grooph-note 'actions (vconcat offered))))

(defun grooph-run ()
  (load (alist-get 'init grooph-plan) nil t)
  (grooph-visit)
  (pcase (alist-get 'scenario grooph-plan)
    ("quick-fix"
     (grooph-wait-diagnostics)
     (grooph-quick-fix)
     (grooph-note 'buffer (grooph-text))
     (grooph-wait "the diagnostics of the repaired text"
                  (lambda () (not (equal (grooph-diagnostics) (alist-get 'diagnostics grooph-result)))))
     (grooph-note 'after (grooph-diagnostics)))
    ("rename"
     (grooph-at-plan)
     (eglot-rename (alist-get 'new_name grooph-plan))
     (grooph-note 'buffer (grooph-text)))
    ("complete"
     (grooph-at-plan)
     (let* ((capf (eglot-completion-at-point))
            (typed (buffer-substring-no-properties (nth 0 capf) (point))))
       (grooph-note 'typed typed)
       (grooph-note 'candidates (vconcat (all-completions typed (nth 2 capf)))))
     (completion-at-point)                ; a unique candidate is inserted, and eglot applies its edit
     (grooph-note 'line (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
     (grooph-note 'buffer (grooph-text)))
    ("choose"
     ;; Completion where several candidates fit: the first chosen, as a completion UI does.
     (grooph-at-plan)
     (grooph-choose-completion (eglot-completion-at-point))
     (grooph-note 'line (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
     (grooph-note 'buffer (grooph-text)))
    ("hover"
     ;; What eldoc shows at point (M-x eldoc): eglot's hover function, called as eldoc calls it.
     (grooph-at-plan)
     (let (got)
       (eglot-hover-eldoc-function (lambda (info &rest _) (setq got (or info ""))))
       (grooph-wait "the hover" (lambda () got))
       (grooph-note 'hover (substring-no-properties got))))
    ("quiet"
     ;; A document the server does not serve: saved (format on save asks the server), then one more
     ;; request and a second of the event loop, so that anything the server would send has arrived.
     (set-buffer-modified-p t)
     (save-buffer)
     (grooph-note 'actions (vconcat (mapcar (lambda (a) (plist-get a :title)) (eglot-code-actions (point-min) (point-max)))))
     (let ((until (+ (float-time) 1.0)))
       (grooph-wait "a second" (lambda () (> (float-time) until))))
     (grooph-note 'diagnostics (grooph-diagnostics))
     (let ((uri (eglot--path-to-uri (buffer-file-name))))
       (grooph-note 'published (vconcat (mapcar #'cadr (seq-filter (lambda (p) (equal (car p) uri)) grooph-published)))))
     (grooph-note 'buffer (grooph-text)))
    (other (grooph-common-scenario other)))
  (grooph-finish))

(condition-case err
    (grooph-run)
  (error (grooph-finish (error-message-string err))))
