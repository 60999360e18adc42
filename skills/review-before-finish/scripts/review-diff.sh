#!/bin/sh
# Shows what a task changed, for a review before finishing: changed and untracked files, a diff
# stat, added lines worth a second look, then the diff (cut after 1500 lines). Read-only.
# Usage: sh review-diff.sh [BASE_REF]   (default HEAD; e.g. main to review a whole branch)
set -u
base="${1:-HEAD}"
if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "not a git repository: re-read each file you changed instead"
  exit 0
fi
if ! git rev-parse --verify --quiet "$base^{commit}" >/dev/null; then
  echo "no commit named '$base' (a repository without commits? then every file is new):"
  git status --short
  exit 0
fi
gd() { git --no-pager diff --no-ext-diff --no-textconv --no-color "$@"; }

echo "== changed files (against $base) =="
git status --short
echo
echo "== diff stat =="
gd --stat "$base" --
echo
echo "== added lines to look at twice =="
gd -U0 "$base" -- | awk '
  /^\+\+\+ / { file = substr($0, 5); sub(/^b\//, "", file); next }
  /^@@/ { n = split($3, a, ","); line = substr(a[1], 2) + 0; next }
  /^\+/ {
    text = substr($0, 2)
    if (text ~ /console\.(log|debug|trace)|debugger;|(^|[^A-Za-z_.])print\(|pdb\.set_trace|binding\.pry|(describe|it|test|context)\.only\(|\.skip\(|(^|[^A-Za-z])(xit|xdescribe|fit|fdescribe)\(|<<<<<<<|>>>>>>>|TODO|FIXME|XXX|[Aa][Pp][Ii]_?[Kk][Ee][Yy][ \t]*[:=]|[Ss][Ee][Cc][Rr][Ee][Tt][ \t]*[:=]|[Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd][ \t]*[:=]/)
      printf "%s:%d: %s\n", file, line, text
    line++
  }'
untracked=$(git ls-files --others --exclude-standard)
if [ -n "$untracked" ]; then
  echo
  echo "== untracked files (new, not in the diff below; review them with read_file) =="
  printf '%s\n' "$untracked"
fi
echo
echo "== diff =="
gd "$base" -- | awk 'NR <= 1500 { print } NR == 1501 { print "[... diff cut after 1500 lines: read the remaining files with read_file ...]" }'
