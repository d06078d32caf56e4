;;; emacs_driver.el --- drive eglot in `emacs --batch' for tests/editors/test_emacs.py  -*- lexical-binding: t -*-

;; The plan (JSON in $GROOPH_PLAN) names the user's init file (docs/editors.md's snippet), the file to
;; visit and the scenario; the driver does what a user would (visit the file, wait for Flymake's
;; diagnostics, M-x eglot-code-actions RET, C-x C-s, M-x eglot-rename, M-x completion-at-point) and
;; writes what the client really received and did, as JSON, to $GROOPH_RESULT.

(require 'json)
(require 'subr-x)

(defvar grooph-plan (json-parse-string (getenv "GROOPH_PLAN") :object-type 'alist :array-type 'list))
(defvar grooph-result nil "The alist written as the result.")
(defvar grooph-deadline (+ (float-time) (/ (alist-get 'timeout_ms grooph-plan 30000) 1000.0)))

(require 'eglot)
(require 'seq)

(defvar grooph-published nil "(uri count) of every publishDiagnostics eglot received, newest first.")
(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest params)
              (when (eq method 'textDocument/publishDiagnostics)
                (push (list (plist-get params :uri) (length (plist-get params :diagnostics))) grooph-published))))

(defun grooph-note (key value)
  (setq grooph-result (cons (cons key value) (assq-delete-all key grooph-result))))

(defun grooph-finish (&optional error)
  (when error (grooph-note 'error error))
  (with-temp-file (getenv "GROOPH_RESULT")
    (insert (json-encode grooph-result)))
  (kill-emacs (if error 1 0)))

(defun grooph-idle ()
  "Run what Emacs runs once the user is idle: idle timers never fire in batch (there is no command
loop waiting for input), and eglot sends its didChange from one."
  (dolist (timer (copy-sequence timer-idle-list))
    (timer-event-handler timer)))

(defun grooph-wait (what predicate)
  "Wait as an idle user does (process output, timers, idle timers) until PREDICATE holds; fail
saying WHAT otherwise."
  (while (not (funcall predicate))
    (when (> (float-time) grooph-deadline)
      (grooph-finish (format "timed out waiting for %s" what)))
    (grooph-idle)
    (accept-process-output nil 0.05)))

(defun grooph-line-col (pos)
  "Zero-based line and character column of POS."
  (save-excursion
    (goto-char pos)
    (list (1- (line-number-at-pos pos t)) (- pos (line-beginning-position)))))

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
          (sort (flymake-diagnostics) (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))))

(defun grooph-goto (needle shift)
  "Point at the first NEEDLE, SHIFT characters into it."
  (goto-char (point-min))
  (unless (search-forward needle nil t)
    (grooph-finish (format "%S is not in the buffer" needle)))
  (goto-char (+ (match-beginning 0) shift)))

(defun grooph-visit ()
  "Visit the plan's file as a user does; the command loop would then run `post-command-hook', where
`eglot-ensure' connects."
  (find-file (alist-get 'file grooph-plan))
  (grooph-note 'major_mode (symbol-name major-mode))
  (grooph-note 'coding (symbol-name buffer-file-coding-system))
  (grooph-note 'visited (grooph-text))
  (run-hooks 'post-command-hook)
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
  (goto-char (flymake-diagnostic-beg (car (sort (flymake-diagnostics)
                                                (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))))
  (let* ((offered nil)
         (completing-read-function
          (lambda (_prompt collection &rest args)
            (setq offered (mapcar #'car collection))
            (nth 4 args)))                 ; DEF: what RET takes
         (last-nonmenu-event ?\r))       ; chosen from the keyboard, not a mouse menu
    (call-interactively #'eglot-code-actions)
    (grooph-note 'actions (vconcat offered))))

(defun grooph-text ()
  (buffer-substring-no-properties (point-min) (point-max)))

(defun grooph-run ()
  (load (alist-get 'init grooph-plan) nil t)
  (grooph-visit)
  (pcase (alist-get 'scenario grooph-plan)
    ("diagnostics"
     (grooph-wait-diagnostics)
     (when (alist-get 'save grooph-plan)   ; then C-x C-s, the buffer marked modified first
       (set-buffer-modified-p t)
       (save-buffer)
       (grooph-note 'buffer (grooph-text))))
    ("quick-fix"
     (grooph-wait-diagnostics)
     (grooph-quick-fix)
     (grooph-note 'buffer (grooph-text))
     (grooph-wait "the diagnostics of the repaired text"
                  (lambda () (not (equal (grooph-diagnostics) (alist-get 'diagnostics grooph-result)))))
     (grooph-note 'after (grooph-diagnostics)))
    ("save"
     (grooph-wait-published)
     (when (alist-get 'edit grooph-plan)   ; a change first, so that the buffer is modified
       (goto-char (point-max))
       (insert " ")
       (delete-char -1))
     (set-buffer-modified-p t)
     (save-buffer)
     (grooph-note 'buffer (grooph-text)))
    ("rename"
     (grooph-wait-published)
     (let ((at (alist-get 'at grooph-plan)))
       (grooph-goto (car at) (cadr at)))
     (eglot-rename (alist-get 'new_name grooph-plan))
     (grooph-note 'buffer (grooph-text)))
    ("complete"
     (grooph-wait-published)
     (let ((at (alist-get 'at grooph-plan)))
       (grooph-goto (car at) (cadr at)))
     (let* ((capf (eglot-completion-at-point))
            (typed (buffer-substring-no-properties (nth 0 capf) (point))))
       (grooph-note 'typed typed)
       (grooph-note 'candidates (vconcat (all-completions typed (nth 2 capf)))))
     (completion-at-point)                ; a unique candidate is inserted, and eglot applies its edit
     (grooph-note 'line (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
     (grooph-note 'buffer (grooph-text)))
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
    (other (grooph-finish (format "unknown scenario %S" other))))
  (grooph-finish))

(condition-case err
    (grooph-run)
  (error (grooph-finish (error-message-string err))))
