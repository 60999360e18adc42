/**
 * What `patchpilot --help` and `patchpilot COMMAND --help` print: a line per command and each
 * command's usage. Apart from the commands (./commands) so printing help evaluates none of them
 * (nor the agent under them): `run --help` costs little more than starting node.
 */

/** The one-line summary of each top-level command, in the order `--help` lists them. */
export const COMMAND_SUMMARIES: Record<string, string> = {
  patch: 'apply or evaluate a patch (unified diff, apply_patch, SEARCH/REPLACE): exact or refused',
  history: 'list, show, search and export the workspace history database',
  run: 'work toward a goal with a model: read, patch, run tests (a REPL without --goal)',
  mcp: 'list the configured MCP servers with their status; approve them ahead of a run; log in to remote ones',
  hooks: "list the configured hooks (patchpilot.hooks); approve a workspace's hooks ahead of a run",
  'model-program': 'approve the workspace files the model program (patchpilot.llm.command) runs, or show their status',
  restore: "put the files back as they were before a run's step (checkpoints), or redo",
  serve: 'run goals sent from a chat (Telegram): progress, approvals and /stop from the phone',
  config: 'print the settings files the CLI reads, and each setting in effect with where it came from',
  import: 'bring settings over from Roo Code, Cline or Continue into your user settings (previewed first)',
  batch: 'run many goals (repositories, goals, settings from a file) here, as a GitHub matrix or a Kubernetes Indexed Job',
};

/** Each command's usage: printed by `COMMAND --help` and after a usage error. */
export const COMMAND_USAGE: Record<string, string> = {
  patch: `Usage:
  patchpilot patch apply PATCHFILE [--cwd DIR] [--dry-run] [--json] [--accept ID ...]
      Apply a unified diff, apply_patch envelope or SEARCH/REPLACE patch to the files under DIR
      (default: the current folder). PATCHFILE "-" reads stdin. All files change or none do.
      What the parser tolerated (prose around a fence, a missing *** End Patch) is a warning on stderr.
      --dry-run   compute and report, write nothing; prints the diff that would be applied
      --json      print the full result as JSON on stdout
      --accept ID apply only these hunks, others are rejected (repeatable); an id is the file and
                  the hunk number the output shows: "hunk #2" of src/a.ts is src/a.ts#2
      Exit: 0 applied, 1 refused (reasons on stderr, or in the JSON), 2 usage error (an unknown --accept id too).

  patchpilot patch eval --jsonl FILE
      For each input line {"id","files":{path:text},"patch"} print one line
      {"id","status":"applied"|"refused","files":{path:newText},"error"?,"ms"} computed in memory.
      FILE "-" reads stdin. Nothing is written to disk.`,
  history: `Usage:
  patchpilot history list [--json] [--limit N] [--status S]   runs, newest first
      S: running, finished, limit, failed, blocked, cancelled, interrupted, stopped (the words
      \`patchpilot run\` ends with); a run whose process is gone is marked interrupted on open
  patchpilot history show RUN_ID [--json]                     one run with its steps, patches, tests
                                                              and its model usage by source
  patchpilot history usage [--days N] [--json]                model usage per day and source
                                                              (main, fast, compaction, subagent N)
  patchpilot history search QUERY [--days N] [--limit N] [--json]
      Full-text search of observations and Q&A summaries, best match (BM25) first.
  patchpilot history export [--format json|jsonl]             the whole audit trail on stdout
Common options:
  --cwd DIR   the workspace (default: the current folder); the database is DIR/.patchpilot/history.db
  --db FILE   use this database file instead
Exit: 0 ok, 1 not found or the database could not be read or saved, 2 usage error.`,
  run: `Usage:
  patchpilot run --goal TEXT [options]
      Work toward the goal in the workspace: read, patch, run tests, until done or a limit.
  patchpilot run [options]
      On a terminal: an interactive session (a goal prompt; /exit or Ctrl-D quits).
  --workspace DIR       the workspace (default: the current folder)
  --approve MODE        ask | auto-edit | auto | plan (default: patchpilot.approval.mode, else ask)
  --dry-run             the same as --approve plan: read and propose (each proposed patch is
                        shown as a diff), write and run nothing
  --max-steps N         model steps before stopping (default 50)
  --max-tokens N        tokens the goal may spend, every model, summaries and subagents counted
                        (patchpilot.limits.maxTokens); the run stops before a request would cross it
  --max-cost-usd X      US dollars the goal may spend (patchpilot.limits.maxCostUsd); the daily limit
                        of the workspace is patchpilot.limits.dailyCostUsd
  --test-cmd CMD        a test command (repeatable; replaces patchpilot.tests.commands)
  --no-detect-tests     without --test-cmd or patchpilot.tests.commands, no test command is
                        detected from the workspace's files (package.json's test script, tox, nox,
                        make, just, task, the CI workflow's test step, pytest, cargo, go, gradle,
                        maven, dotnet); the run then has none
  --provider P          openai, anthropic, google, deepseek, mistral, groq, openrouter, xai,
                        ollama, lmstudio, vllm, llamacpp or custom (or PATCHPILOT_PROVIDER):
                        its default endpoint and its key variable (DEEPSEEK_API_KEY...)
  --base-url URL        OpenAI-compatible endpoint (or PATCHPILOT_BASE_URL)
  --model M             the model (or PATCHPILOT_MODEL); --fast-model M (or PATCHPILOT_FAST_MODEL)
  --provider anthropic  Anthropic's Messages API instead of chat completions (or PATCHPILOT_PROVIDER);
                        the key then comes from PATCHPILOT_API_KEY, else ANTHROPIC_API_KEY;
                        --thinking-budget N: extended thinking, N tokens per reply (>= 1024)
  --llm-command CMD     a program that serves the model: it reads a chat-completions request (JSON)
                        on stdin and streams the reply on stdout (or PATCHPILOT_LLM_COMMAND; never
                        taken from the workspace's settings)
  --trust-workspace     honour the workspace's own base URL, test and check commands, allowlists,
                        approval mode and auto-commit from .vscode/settings.json
                        (ignored otherwise, with a warning)
  --resume RUN          continue the session a run belongs to (its id, a unique prefix,
                        or "last"), from the history: the goal (or the prompt) is a follow-up
  --json                one JSON event per line on stdout instead of the summary (the model's
                        reasoning comes as "reasoning/delta" events), the last one the "result"
                        (docs/api.md)
  --show-reasoning      print the model's reasoning (thinking) in the progress output too
The API key comes from PATCHPILOT_API_KEY, else the provider's variable (OPENAI_API_KEY without
a provider; none for servers on this machine); web_search's Brave key from
PATCHPILOT_BRAVE_API_KEY. MCP servers (patchpilot.mcp.servers) need approval: asked on a terminal,
else given ahead with patchpilot mcp approve NAME; so do a workspace's hooks (patchpilot.hooks,
docs/hooks.md): patchpilot hooks approve.
Without a terminal (or with --json) nobody can be asked: the run says so before it starts, what needs
approval is refused and the model is told; a run whose every edit was refused that way ends "blocked".
Ctrl-C, SIGTERM or SIGHUP cancel the running goal (its command's process tree is killed); at the prompt Ctrl-C quits.
Exit codes: 0 finished (tests passed or none ran); 1 error (the model failed, its stream broke off,
the loop guard); 2 usage or settings error; 3 finished with known test failures only; 4 finished
with tests failing; 5 blocked; 6 a budget ran out (steps, wall clock, tokens, cost); 130 cancelled.
The status is the one \`patchpilot history list\` shows.
OpenTelemetry traces and metrics (off by default): PATCHPILOT_TELEMETRY=1, OTEL_* (docs/telemetry.md).`,
  mcp: `Usage:
  patchpilot mcp list [--workspace DIR] [--trust-workspace] [--json]
      Each configured MCP server (patchpilot.mcp.servers) and its status: connected (with its
      transport and tool count, and its tools, prompts and resources), failed (with the reason),
      or waiting for approval. Approved servers are started to check them, then stopped; nothing
      is approved. A prompt is run as a goal: patchpilot run --goal "/mcp.SERVER.PROMPT name=value".
  patchpilot mcp approve NAME... [--workspace DIR] [--trust-workspace]
      Approve servers ahead of a run (a run without a terminal cannot ask): start each one, show
      its command and tools, and record them with the content of every workspace file its
      launch names. A later change of the command, arguments, environment, URL, of such a file
      or of a tool's definition needs approval again.
  patchpilot mcp login NAME [--no-browser] [--workspace DIR] [--trust-workspace]
      Log in to a remote server that asks for OAuth: prints the authorization page (and opens it
      in the browser unless --no-browser), waits for the browser to come back to a listener on
      127.0.0.1, and keeps the tokens in PATCHPILOT_STATE_HOME/mcp-oauth.json (mode 0600).
      Expired access tokens are refreshed by themselves; a refused refresh asks for a new login.
  patchpilot mcp logout NAME [--workspace DIR] [--trust-workspace]
      Delete the tokens kept for a remote server.
  --trust-workspace     use the servers of the workspace's .vscode/settings.json (ignored otherwise)
Servers come from .vscode/settings.json; approvals are kept in the workspace's .patchpilot folder,
signed with a key in PATCHPILOT_STATE_HOME (default ~/.local/state/patchpilot). Local servers run
in the commands' sandbox; PATCHPILOT_MCP_UNSANDBOXED=name,... exempts servers by name.`,
  hooks: `Usage:
  patchpilot hooks list [--workspace DIR] [--trust-workspace] [--json]
      Each configured hook (patchpilot.hooks): its event, matcher and command, where it comes
      from (user or workspace settings), and whether a workspace hook is approved.
  patchpilot hooks approve [--workspace DIR] [--trust-workspace]
      Approve the workspace's hooks ahead of a run (a run without a terminal cannot ask). A hook
      whose event, matcher or command changes later needs approval again.
  --trust-workspace     use the hooks of the workspace's .vscode/settings.json (ignored otherwise)
Your own hooks (~/.config/patchpilot/settings.json) need no approval. Approvals are kept in the
workspace's .patchpilot folder, signed with a key in PATCHPILOT_STATE_HOME (default
~/.local/state/patchpilot). See docs/hooks.md.`,
  'model-program': `Usage:
  patchpilot model-program status [--workspace DIR] [--llm-command LINE]
      Whether the model program (patchpilot.llm.command) may start here: the workspace files it
      runs, and whether they are as you approved them.
  patchpilot model-program approve [--workspace DIR] [--llm-command LINE]
      Approve the workspace files the model program runs, as they are now. A program that runs
      workspace files starts only while they are unchanged (the agent could rewrite them); a change
      stops it until you approve again. A program that runs no workspace file needs no approval.
  --llm-command LINE    the program as \`patchpilot run --llm-command\` names it (default: your settings)
Run it from the folder you run patchpilot in (relative paths of the command line are read from there).
Approvals are kept in the workspace's .patchpilot folder, signed with a key in PATCHPILOT_STATE_HOME
(default ~/.local/state/patchpilot). See docs/security.md.`,
  restore: `Usage:
  patchpilot restore --workspace DIR --run <RUN_ID|last> --before-step N [--dry-run] [--yes] [--restore-rest]
      Puts every file the run's steps N and later changed back as it was before step N: edits,
      created files (removed), deleted and renamed files (recreated), mode bits, and what commands and
      test runs wrote. The user's .git is never touched. The agent is told at its next run.
  patchpilot restore --workspace DIR --redo [--dry-run] [--yes]
      Undoes the last restore (the files go back to what the run had left).
Options:
  --dry-run       print the files and a diff (now -> after the restore); write nothing
  --yes           do not ask (needed when stdin is not a terminal)
  --restore-rest  when some files block the restore (changed since, no permission), restore the others
Exit: 0 restored (or dry run), 1 blocked, refused or failed, 2 usage error.`,
  serve: `Usage:
  patchpilot serve --telegram [--workspace DIR] [options of patchpilot run]
      Run goals sent from Telegram in the workspace, one at a time, as one session: a message from
      a chat in patchpilot.channels.telegram.allowedChatIds (user settings only) is a goal; its
      progress is one status message, edited as it goes, then the summary; approvals come as
      Approve / Deny buttons in that chat, answered by the goal's sender only (or the user ids in
      patchpilot.channels.telegram.approverIds); /stop cancels the running goal. Other chats are refused.
  --telegram            serve through a Telegram bot: its token from PATCHPILOT_TELEGRAM_TOKEN
                        (PATCHPILOT_TELEGRAM_API_ROOT: another Bot API server than Telegram's own)
  --workspace DIR       the workspace (default: the current folder)
  --approve, --max-steps, --max-tokens, --max-cost-usd, --test-cmd, --no-detect-tests, --provider,
  --base-url, --model, --fast-model, --llm-command, --thinking-budget, --trust-workspace:
                        as for patchpilot run
Ctrl-C or SIGTERM stops serving (a running goal is cancelled first).
Exit: 0 stopped, 1 the bot could not reach the Bot API (a wrong token), 2 usage or settings error.`,
  config: `Usage:
  patchpilot config path [--workspace DIR]
      Prints the settings files the CLI reads, weakest first: your user settings file
      ($XDG_CONFIG_HOME/patchpilot/settings.json, else ~/.config/patchpilot/settings.json) and the
      workspace's .vscode/settings.json, each marked (missing) when it does not exist.
  patchpilot config show [--workspace DIR] [--trust-workspace] [--json]
      Prints every setting that is not at its default, with where its value came from (user,
      workspace, env, flag; a list that adds up names each scope), the values ignored and why, and
      where the API key comes from (never the key).
Options:
  --workspace DIR       the workspace (default: the current folder)
  --trust-workspace     resolve as 'patchpilot run --trust-workspace' would
  --json                one JSON object on stdout
Exit: 0 ok, 2 usage or settings error (a malformed file is named with its line and column).`,
  import: `Usage:
  patchpilot import --from roo|cline|continue FILE [--workspace DIR] [--dry-run] [--yes]
      Brings another agent's settings into your PatchPilot user settings file
      ($XDG_CONFIG_HOME/patchpilot/settings.json, else ~/.config/patchpilot/settings.json):
      the endpoint and model, MCP servers (asked for approval again before they start), command
      allow and deny lists; rules and custom instructions go to DIR/.patchpilot/rules/imported-SOURCE.md.
      FILE: Roo Code's settings export or mcp_settings.json; Cline's cline_mcp_settings.json or
      .clinerules; Continue's config.yaml (or legacy config.json).
      Prints a preview first (keys masked) and what is not imported, with why.
      API keys are not written: the CLI reads them from the environment; the preview names the variable.
Options:
  --workspace DIR   where the rules file goes (default: the current folder)
  --dry-run         print the preview; write nothing
  --yes             do not ask (needed when stdin is not a terminal)
Exit: 0 imported (or dry run, or nothing to import), 1 not imported (unreadable file, refused), 2 usage or settings error.`,
  batch: `Usage:
  patchpilot batch FILE [--concurrency N] [--work-dir DIR] [--events-dir DIR] [--json]
      Run every goal of FILE here, at most N at a time (default 2), and print one table of their
      results: status, tests, tokens, cost, exit code.
  patchpilot batch FILE --matrix
      Print a GitHub Actions matrix ({"include":[{"index":0,...}]}) of FILE's goals, one line of JSON.
  patchpilot batch FILE --index N
      Run goal N only (from 0); without --index, JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) names it.
FILE (JSON or YAML): goals, each a repo (a folder, relative to FILE, or a git URL, cloned into
--work-dir, default a new temporary folder), a goal and its own settings (the options of patchpilot
run by name: model, approve, max-steps, test-cmd...), and optional defaults for all:
  defaults: { approve: auto-edit, max-cost-usd: 2 }
  goals:
    - { repo: ./api, goal: make the failing date test pass, test-cmd: npm test }
Each goal runs as patchpilot run --json (docs/api.md); --events-dir keeps each one's events as
item-N.jsonl. --json prints the items with their result events instead of the table.
Exit: 0 when every goal exited 0 or 3 (known test failures only), else 1; with --index, the goal's
own exit code (docs/cli.md); 2 for a bad FILE or option.`,
};
