#!/bin/sh
# Layering check: no include cycle among a folder's files and no call
# cycle among its objects. Usage:
#   cycles.sh NAME SRC_DIR OBJ_DIR [ALLOWED...]
# Include edges come from the '#include "..."' lines of SRC_DIR's .c and .h
# files that name another file of SRC_DIR. Call edges come from the
# objects: A -> B when A.o uses a symbol that B.o defines. ALLOWED names
# call edges to leave out, as "from:to" (a start/complete pair, say: keep
# one direction, allow the other). Prints one TAP line per graph; exits 1
# if either has a cycle, naming its files.
name=$1
src=$2
obj=$3
shift 3
allowed=" $* "
status=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# Include graph: FILE INCLUDED pairs, both as names inside SRC_DIR.
for f in "$src"/*.c "$src"/*.h; do
	[ -e "$f" ] || continue
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
	while read -r inc; do
		[ -e "$src/$inc" ] && [ "${inc#*/}" = "$inc" ] &&
			echo "${f##*/} $inc"
	done
	echo "${f##*/} ${f##*/}"	# every file is a node
done > "$tmp/includes"

# Call graph: USER DEFINER pairs of object names. Only the objects of
# SRC_DIR's sources count: a stale object of a renamed file is no node.
for c in "$src"/*.c; do
	n=${c##*/}
	n=${n%.c}
	[ -e "$obj/$n.o" ] || { echo "not ok - $name: $obj/$n.o missing"; exit 1; }
	echo "$n"
done > "$tmp/objs"
while read -r n; do
	nm --defined-only -g "$obj/$n.o" | awk -v n="$n" 'NF == 3 { print $3, n }'
done < "$tmp/objs" | sort -u > "$tmp/defs"
while read -r n; do
	nm -u "$obj/$n.o" | awk -v n="$n" '{ print $NF, n }'
done < "$tmp/objs" | sort -u > "$tmp/uses"
join "$tmp/uses" "$tmp/defs" | awk '$2 != $3 { print $2, $3 }' | sort -u |
while read -r a b; do
	case "$allowed" in *" $a:$b "*) continue ;; esac
	echo "$a $b"
done > "$tmp/calls"
awk '{ print $1, $1 }' "$tmp/objs" >> "$tmp/calls"	# every object is a node

# tsort names the files of each loop it finds on stderr.
check() {
	if tsort "$tmp/$1" > /dev/null 2> "$tmp/loop"; then
		echo "ok - $name: no $1 cycle"
	else
		echo "not ok - $name: $1 cycle among:" $(grep -v 'input contains a loop' "$tmp/loop" |
			sed 's/^tsort: //' | sort -u)
		echo "# edges:"
		awk '$1 != $2 { print "#   " $0 }' "$tmp/$1"
		status=1
	fi
}
check includes
check calls
exit $status
