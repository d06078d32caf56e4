;;; emacs_common.el --- what the Emacs drivers of tests/editors share  -*- lexical-binding: t -*-

;; The plan (JSON in $GROOPH_PLAN), the result written as JSON to $GROOPH_RESULT, and waiting as an
;; idle user does. Loaded by emacs_driver.el (eglot) and emacs_lsp_mode_driver.el (lsp-mode).

(require 'json)
(require 'subr-x)

(defvar grooph-plan (json-parse-string (getenv "GROOPH_PLAN") :object-type 'alist :array-type 'list))
(defvar grooph-result nil "The alist written as the result.")
(defvar grooph-deadline (+ (float-time) (/ (alist-get 'timeout_ms grooph-plan 30000) 1000.0)))

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

(defun grooph-goto (needle shift)
  "Point at the first NEEDLE, SHIFT characters into it."
  (goto-char (point-min))
  (unless (search-forward needle nil t)
    (grooph-finish (format "%S is not in the buffer" needle)))
  (goto-char (+ (match-beginning 0) shift)))

(defun grooph-text ()
  (buffer-substring-no-properties (point-min) (point-max)))

(defun grooph-at-plan ()
  "Once the server has checked the file, point at the plan's `at' (a needle and a shift into it).
`grooph-wait-published' is the driver's own."
  (grooph-wait-published)
  (let ((at (alist-get 'at grooph-plan)))
    (grooph-goto (car at) (cadr at))))

(defun grooph-common-scenario (scenario)
  "The scenarios every client runs alike (the driver's `grooph-wait-diagnostics' and
`grooph-wait-published'): the diagnostics (then C-x C-s, when the plan says save), and C-x C-s."
  (pcase scenario
    ("diagnostics"
     (grooph-wait-diagnostics)
     (when (alist-get 'save grooph-plan)   ; then C-x C-s, the buffer marked modified first
       (set-buffer-modified-p t)
       (save-buffer)
       (grooph-note 'buffer (grooph-text))))
    ("save"
     (grooph-wait-published)
     (when (alist-get 'edit grooph-plan)   ; a change first, so that the buffer is modified
       (goto-char (point-max))
       (insert " ")
       (delete-char -1))
     (set-buffer-modified-p t)
     (save-buffer)
     (grooph-note 'buffer (grooph-text)))
    (other (grooph-finish (format "unknown scenario %S" other)))))

(defun grooph-flymake-sorted ()
  "Flymake's diagnostics of the buffer, the first in the text first."
  (sort (flymake-diagnostics) (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))

(defun grooph-find-file ()
  "Visit the plan's file as a user does, noting its mode, coding and text; the command loop would
then run `post-command-hook', where the client's hook connects."
  (find-file (alist-get 'file grooph-plan))
  (grooph-note 'major_mode (symbol-name major-mode))
  (grooph-note 'coding (symbol-name buffer-file-coding-system))
  (grooph-note 'visited (grooph-text))
  (run-hooks 'post-command-hook))

(defun grooph-choose-completion (capf)
  "The table of CAPF (a `completion-at-point-functions' answer) at the cursor; the first candidate
chosen as a completion UI (company, corfu, the *Completions* buffer) does: inserted over the typed
part, then the item's exit function (which applies the server's edit)."
  (let* ((start (nth 0 capf))
         (end (nth 1 capf))
         (typed (buffer-substring-no-properties start (point)))
         (candidates (all-completions typed (nth 2 capf)))
         (choice (car candidates))
         (exit (plist-get (nthcdr 3 capf) :exit-function)))
    (grooph-note 'typed typed)
    (grooph-note 'candidates (vconcat (mapcar #'substring-no-properties candidates)))
    (when choice
      (delete-region start end)
      (goto-char start)
      (insert choice)
      (when exit (funcall exit choice 'finished)))
    (grooph-note 'chosen (and choice (substring-no-properties choice)))))
