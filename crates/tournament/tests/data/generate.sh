#!/bin/sh
# Makes the random Dutch-system tournaments of dutch/ and dutch-unplayed/ with bbpPairings
# v5.0.1 (the 2017 Dutch rules), commit 0433c52a773558608f59e6871d5a7e98806b9ed2, built with
# its Makefile (g++ 12).
# Usage: sh generate.sh /path/to/bbpPairings.exe
# Each tournament is generated with a fixed seed; bbpPairings paired every round of it.
# dutch/ has every game played (no forfeits, byes on request or withdrawals); dutch-unplayed/
# has forfeits (1 game in 20), half-point byes on request (1 in 10) and withdrawals (rate 30 in
# the generator's terms); dutch-large/ is like dutch/ with 50 to 100 players.
# The script adds the "XXR <rounds>" line (bbpPairings' generator leaves it out), turns the
# generator's carriage returns into newlines, and has bbpPairings check each file (-c).
set -eu
bbp=$1
here=$(cd "$(dirname "$0")" && pwd)
cfg=$(mktemp)
generate() {
  out=$1 seed=$2 players=$3 rounds=$4 extra=$5
  mkdir -p "$out"
  printf 'PlayersNumber=%s\nRoundsNumber=%s\nDrawPercentage=30\nHighestRating=2600\nLowestRating=1400\n%b' \
    "$players" "$rounds" "$extra" > "$cfg"
  name=$(printf 'random-%02d-p%d-r%d.trf' "$seed" "$players" "$rounds")
  "$bbp" --dutch -g "$cfg" -o "$out/$name.raw" -s "$seed"
  { tr '\r' '\n' < "$out/$name.raw" | grep -v '^$'; echo "XXR $rounds"; } > "$out/$name"
  rm "$out/$name.raw"
  "$bbp" --dutch "$out/$name" -c > /dev/null
}
n=0
for spec in 7:5 8:5 9:5 10:6 11:6 12:7 13:7 14:7 15:8 16:8 17:8 18:9 19:9 20:9 21:9 24:9 27:10 30:11 35:11 40:11; do
  n=$((n + 1))
  generate "$here/dutch" "$n" "${spec%:*}" "${spec#*:}" \
    'ForfeitRate=1000000\nRetiredRate=1000000\nHalfPointByeRate=1000000\n'
done
n=100
for spec in 9:5 12:6 15:7 18:8 21:9 25:9 30:10 36:11; do
  n=$((n + 1))
  generate "$here/dutch-unplayed" "$n" "${spec%:*}" "${spec#*:}" \
    'ForfeitRate=20\nRetiredRate=30\nHalfPointByeRate=10\n'
done
n=200
for spec in 50:9 64:10 80:11 100:11; do
  n=$((n + 1))
  generate "$here/dutch-large" "$n" "${spec%:*}" "${spec#*:}" \
    'ForfeitRate=1000000\nRetiredRate=1000000\nHalfPointByeRate=1000000\n'
done
rm "$cfg"
