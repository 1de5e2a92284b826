#!/bin/sh
# Loom's Claude Code hook: `loom-hook.sh <Event> <state dir>`, Claude Code's hook JSON on stdin.
# Claude Code waits for every hook, so this is a shell script (a few milliseconds; Node alone
# takes 40-120 ms to start): it appends one line to <state dir>/states/<session_id>.jsonl, and
# exits 0 whatever happens. The kernel does the rest.
#
# The line is built here, field by field: the event and LOOM_SESSION are this hook's own, and
# what came on stdin (minus the prompt) is one JSON string inside it, so no input, valid JSON or
# not, can add or repeat a key of the line. The kernel parses that string.
event=$1
dir=$2
log() { mkdir -p "$dir" 2>/dev/null && printf '%s %s: %s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$event" "$1" >>"$dir/hook-errors.log" 2>/dev/null; exit 0; }
[ -n "$dir" ] || exit 0
case $event in *[!A-Za-z]*|'') log "unknown hook event" ;; esac
# Control characters can only sit between JSON tokens (inside a string they are escaped), so
# dropping them changes no value; then the prompt's text goes (it stays in the transcript), and
# backslashes and quotes are escaped, making the input one JSON string's contents.
input=$(tr -d '\000-\037' | sed -E -e 's/"prompt"[[:space:]]*:[[:space:]]*"([^"\\]|\\.)*"/"prompt":null/' -e 's/\\/\\\\/g' -e 's/"/\\"/g')
case $input in '{'*'}') ;; *) log "hook input is not a JSON object" ;; esac
id=$(printf '%s' "$input" | sed -nE 's/.*\\"session_id\\"[[:space:]]*:[[:space:]]*\\"([A-Za-z0-9._-]{1,128})\\".*/\1/p')
[ -n "$id" ] || log "hook input has no usable session_id"
case $LOOM_SESSION in *[!A-Za-z0-9._-]*|'') session=null ;; *) session="\"$LOOM_SESSION\"" ;; esac
mkdir -p "$dir/states" 2>/dev/null || log "cannot create $dir/states"
umask 077
printf '{"t":"%s","event":"%s","loom_session":%s,"input":"%s"}\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$event" "$session" "$input" >>"$dir/states/$id.jsonl" 2>/dev/null || log "cannot write $dir/states/$id.jsonl"
exit 0
