#!/bin/sh
# /rxe/guest-run ID COMMAND...: hands one command to a kept guest (RXE_KEEP=1, see entrypoint.sh).
# ID is a number of the caller's choice that names the command's markers on the console
# (RXE-PEER-START ID, RXE-PEER-DONE ID STATUS); the arguments form one shell command, as for a
# guest that runs one command. Returns at once: the command runs in the guest's background.
set -eu
[ $# -ge 2 ] || { echo "usage: guest-run ID COMMAND..." >&2; exit 2; }
case $1 in *[!0-9]*) echo "guest-run: the id must be a number: $1" >&2; exit 2 ;; esac
[ -p /run/rxe/cmd.in ] || { echo "guest-run: this guest is not kept (RXE_KEEP=1)" >&2; exit 2; }
id=$1
shift
# One write of one line: the FIFO keeps a line of up to 4096 bytes whole among concurrent writers.
line="$id $(printf '%s' "$*" | base64 | tr -d '\n')"
[ ${#line} -lt 4096 ] || { echo "guest-run: the command is too long (${#line} bytes encoded, below 4096)" >&2; exit 2; }
printf '%s\n' "$line" > /run/rxe/cmd.in
