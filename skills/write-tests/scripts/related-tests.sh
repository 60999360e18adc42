#!/bin/sh
# Lists the test files likely to cover the given source files (default: the files changed since HEAD,
# untracked ones included): tests named after each file (x.test.ts, x.spec.js, test_x.py, x_test.go,
# XTest.java) and tests that mention its name. Read-only.
set -u

in_git=0
git rev-parse --git-dir >/dev/null 2>&1 && in_git=1

if [ "$#" -eq 0 ]; then
  if [ "$in_git" -eq 0 ]; then echo "not a git repository: name the source files, e.g. sh related-tests.sh src/parser.ts"; exit 0; fi
  # shellcheck disable=SC2046
  set -- $( { git --no-pager diff --name-only --no-ext-diff HEAD -- 2>/dev/null; git ls-files --others --exclude-standard; } | sort -u)
  if [ "$#" -eq 0 ]; then echo "nothing changed since HEAD: name the source files"; exit 0; fi
fi

if [ "$in_git" -eq 1 ]; then
  all=$(git ls-files --cached --others --exclude-standard)
else
  all=$(find . -type f ! -path '*/node_modules/*' ! -path '*/.git/*' | sed 's|^\./||')
fi
tests=$(printf '%s\n' "$all" | grep -E '(^|/)(tests?|__tests__|specs?)/|[._-](test|spec)s?\.[A-Za-z0-9]+$|(^|/)test_[^/]+$|_test\.[A-Za-z0-9]+$|Tests?\.[A-Za-z0-9]+$')
if [ -z "$tests" ]; then echo "no test files found in this workspace"; exit 0; fi

for src in "$@"; do
  base=$(basename "$src")
  stem=${base%%.*}
  [ -n "$stem" ] || continue
  echo "== $src"
  named=$(printf '%s\n' "$tests" | grep -vxF "$src" | awk -v s="$stem" '
    { b = $0; sub(/.*\//, "", b)
      if (index(b, s ".") == 1 || index(b, s "_") == 1 || index(b, s "-") == 1 || index(b, "test_" s) == 1 || index(b, s "Test") == 1 || index(b, s "Spec") == 1) print "  named after it: " $0 }')
  mentions=$(printf '%s\n' "$tests" | grep -vxF "$src" | while IFS= read -r t; do
    if [ -f "$t" ] && grep -qF -- "$stem" "$t" 2>/dev/null; then echo "  mentions $stem: $t"; fi
  done | head -n 15)
  if [ -z "$named$mentions" ]; then echo "  no test file is named after it or mentions $stem: a new test file is needed"; fi
  [ -n "$named" ] && printf '%s\n' "$named"
  [ -n "$mentions" ] && printf '%s\n' "$mentions"
done
exit 0
