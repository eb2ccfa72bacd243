#!/bin/sh
# Makes the random Dutch-system tournaments of dutch/ with bbpPairings v5.0.1 (the 2017 Dutch
# rules), commit 0433c52a773558608f59e6871d5a7e98806b9ed2, built with its Makefile (g++ 12).
# Usage: sh generate.sh /path/to/bbpPairings.exe
# Each tournament is generated with a fixed seed; every round in it was paired by bbpPairings.
# The script then adds the "XXR <rounds>" line (bbpPairings' generator leaves it out) and turns
# its carriage returns into newlines.
set -eu
bbp=$1
here=$(cd "$(dirname "$0")" && pwd)
out=$here/dutch
mkdir -p "$out"
cfg=$(mktemp)
n=0
for spec in 7:5 8:5 9:5 10:6 11:6 12:7 13:7 14:7 15:8 16:8 17:8 18:9 19:9 20:9 21:9 24:9 27:10 30:11 35:11 40:11; do
  players=${spec%:*}
  rounds=${spec#*:}
  n=$((n + 1))
  cat > "$cfg" <<CFG
PlayersNumber=$players
RoundsNumber=$rounds
DrawPercentage=30
ForfeitRate=1000000
RetiredRate=1000000
HalfPointByeRate=1000000
HighestRating=2600
LowestRating=1400
CFG
  name=$(printf 'random-%02d-p%d-r%d.trf' "$n" "$players" "$rounds")
  "$bbp" --dutch -g "$cfg" -o "$out/$name.raw" -s "$n"
  { tr '\r' '\n' < "$out/$name.raw" | grep -v '^$'; echo "XXR $rounds"; } > "$out/$name"
  rm "$out/$name.raw"
  # bbpPairings checks its own tournament (exit status 0: every round as it would pair it).
  "$bbp" --dutch "$out/$name" -c > /dev/null
done
rm "$cfg"
