#!/usr/bin/env bash
# Regenerates the VidFrame sample media in media/ from nothing but ffmpeg's synthetic lavfi sources
# (testsrc2, smptehdbars, gradients, mandelbrot, sine, anoisesrc, color) and writes media/catalog.json with the
# byte sizes and durations measured by ffprobe.
#
#   npm run media            # or: bash scripts/make-media.sh
#   npm run media -- --long  # the long adaptive samples, into the library (not committed; see below)
#
# Idempotent: everything under media/videos/ and media/catalog.json is rebuilt from scratch in a temporary
# directory and swapped in at the end (media/README.md is left alone). Encodes are bit-exact and single-threaded,
# so running it twice with the same ffmpeg produces the same bytes.
#
# The adaptive sample (VFladder001) goes through the same ingest as any video a site owner brings
# (scripts/ingest/makeSamples.ts, `npm run ingest`); its entry is appended to the catalogue. `--long` makes only the
# long samples (60-120 s, scenes of changing complexity): their sources are cached in .data/media-cache and they are
# ingested into the library (VIDFRAME_LIBRARY_DIR, default .data/library), both outside git.
#
# Environment: FFMPEG and FFPROBE override the binaries (default: the ones on PATH).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
MEDIA_DIR="$ROOT/media"
export FFMPEG="${FFMPEG:-ffmpeg}"
export FFPROBE="${FFPROBE:-ffprobe}"
SAMPLES=("$ROOT/node_modules/.bin/tsx" "$ROOT/scripts/ingest/makeSamples.ts")
LONG=""
case "${1:-}" in
  "") ;;
  --long) LONG=1 ;;
  *) echo "make-media: unknown argument '$1' (npm run media [-- --long])" >&2; exit 2 ;;
esac

for tool in "$FFMPEG" "$FFPROBE"; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "make-media: '$tool' not found; install ffmpeg (Debian: apt-get install ffmpeg)" >&2
    exit 1
  fi
done

if [[ -n $LONG ]]; then
  cd "$ROOT"
  exec "${SAMPLES[@]}" long
fi

# --- encoding settings --------------------------------------------------------------------------------------------
FPS=25
KEYFRAME_INTERVAL_FRAMES=$FPS # one keyframe per second, so seeking is snappy
MIME_TYPE='video/webm; codecs="vp9, opus"'
# Bit-exact, metadata-free, single-threaded: reproducible output (no random segment UID, no encoder version tag).
COMMON_OUT=(-fflags +bitexact -flags:v +bitexact -flags:a +bitexact -map_metadata -1 -threads 1)
VIDEO_OUT=(-c:v libvpx-vp9 -pix_fmt yuv420p -crf 42 -g "$KEYFRAME_INTERVAL_FRAMES" -keyint_min "$KEYFRAME_INTERVAL_FRAMES"
  -deadline good -cpu-used 4 -row-mt 0 -auto-alt-ref 0)
AUDIO_OUT=(-c:a libopus -b:a 32k -ac 1 -ar 48000)
# name width height video-bitrate-cap
RENDITIONS=("small 426 240 90k" "medium 640 360 150k")

# Every ffmpeg run is bounded (inputs carry -t, and this guards against a stuck encoder).
ff() { timeout 600 "$FFMPEG" -hide_banner -nostdin -loglevel error -y "$@"; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/vidframe-media.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
OUT="$WORK/media"
mkdir -p "$OUT/videos"

# JSON string literal (the catalogue only holds plain text, but quotes and backslashes are escaped anyway).
json_str() {
  local s=${1//\\/\\\\}
  s=${s//\"/\\\"}
  printf '"%s"' "$s"
}

file_bytes() { wc -c <"$1" | tr -d ' '; }

probe_duration() {
  local d
  d="$("$FFPROBE" -v error -show_entries format=duration -of default=noprint_wrappers=1:nokey=1 "$1")"
  printf '%.3f' "$d"
}

# encode_video ID SECONDS TONE_HZ "LAVFI VIDEO SOURCE (640x360 @ FPS)" "EXTRA VIDEO FILTERS (or empty)"
# Renders the source once at 640x360 and encodes every rendition from it, plus a poster frame at 2 s.
encode_video() {
  local id=$1 seconds=$2 tone=$3 source=$4 filters=$5
  local dir="$OUT/videos/$id"
  mkdir -p "$dir"
  local chain="[0:v]${filters:+$filters,}format=yuv420p,split=${#RENDITIONS[@]}"
  local outputs=() i=0 r name w h rate
  for r in "${RENDITIONS[@]}"; do
    chain+="[src$i]"
    i=$((i + 1))
  done
  i=0
  for r in "${RENDITIONS[@]}"; do
    read -r name w h rate <<<"$r"
    chain+=";[src$i]scale=${w}:${h}:flags=bicubic,setsar=1[v$i]"
    outputs+=(-map "[v$i]" -map 1:a "${VIDEO_OUT[@]}" -b:v "$rate" "${AUDIO_OUT[@]}" "${COMMON_OUT[@]}"
      -t "$seconds" "$dir/$name.webm")
    i=$((i + 1))
  done
  # An audible sine tone, beeping a little louder once a second (handy to hear seeks).
  ff -t "$seconds" -f lavfi -i "$source" \
    -t "$seconds" -f lavfi -i "sine=frequency=${tone}:sample_rate=48000:beep_factor=2" \
    -filter_complex "$chain" "${outputs[@]}"
  ff -ss 2 -t 1 -f lavfi -i "$source" -frames:v 1 ${filters:+-vf "$filters"} -q:v 5 \
    -fflags +bitexact -flags:v +bitexact -map_metadata -1 "$dir/poster.jpg"
}

# write_captions ID LANG "CUE TEXT PREFIX" COUNT: one cue every 2 s, each with visible text. The text may carry
# WebVTT markup (<i>, <b>, <c.class>): the player renders it as markup, never as raw text.
write_captions() {
  local id=$1 lang=$2 count=$4 text n start end
  local file="$OUT/videos/$id/captions.$lang.vtt"
  {
    printf 'WEBVTT\n\n'
    for ((n = 1; n <= count; n++)); do
      start=$(((n - 1) * 2))
      end=$((n * 2))
      case "$lang" in
        en) text="Caption $n of $count: $3" ;;
        es) text="Subtítulo $n de $count: $3" ;;
        *) text="$3 ($n/$count)" ;;
      esac
      printf '%s-%d\n00:00:%02d.000 --> 00:00:%02d.000\n%s\n\n' "$lang" "$n" "$start" "$end" "$text"
    done
  } >"$file"
}

# A deliberately unplayable upload: the first 256 bytes of a real WebM (a valid-looking EBML header and the start
# of a Segment) followed by deterministic noise, so a browser accepts the type, starts demuxing and then fails.
make_broken() {
  local id=$1 donor=$2 dir="$OUT/videos/$1" name kib
  mkdir -p "$dir"
  for r in "${RENDITIONS[@]}"; do
    read -r name _ _ _ <<<"$r"
    kib=$([[ $name == small ]] && echo 24 || echo 40)
    head -c 256 "$donor" >"$dir/$name.webm"
    ff -f lavfi -i "anoisesrc=color=white:seed=20240613:sample_rate=48000:amplitude=1" \
      -t "$(awk "BEGIN { print $kib * 1024 / 96000 }")" -f s16le -ac 1 - >>"$dir/$name.webm"
  done
  ff -t 1 -f lavfi -i "color=c=0x404040:s=640x360:r=$FPS" -frames:v 1 -q:v 5 \
    -fflags +bitexact -flags:v +bitexact -map_metadata -1 "$dir/poster.jpg"
}

# --- the samples --------------------------------------------------------------------------------------------------
echo "make-media: encoding into $WORK" >&2

encode_video VFsunrise01 12 440 "testsrc2=size=640x360:rate=$FPS" ""
write_captions VFsunrise01 en "the <i>sun</i> rises over the <b>test pattern</b>" 6
write_captions VFsunrise01 es "el <i>sol</i> sale sobre la <c.yellow>carta de ajuste</c>" 6

encode_video VFcitylight 10 523.25 "smptehdbars=size=640x360:rate=$FPS" "hue=H=2*PI*t/10"

encode_video VFoceanwave 15 329.63 \
  "gradients=size=640x360:rate=$FPS:type=radial:n=4:c0=0x002244:c1=0x0077aa:c2=0x33bbdd:c3=0x001a33:speed=0.03:seed=11" ""

# The Mandelbrot zoom is full of fine detail; a light blur keeps it within a few hundred KB at one keyframe a second.
encode_video VFnoembed01 8 659.25 "mandelbrot=size=640x360:rate=$FPS:maxiter=512" "gblur=sigma=2"

make_broken VFbrokenvid "$OUT/videos/VFcitylight/small.webm"

# The adaptive sample, through ingest: its files under videos/VFladder001/<version>/, its entry in entries/.
"${SAMPLES[@]}" short "$OUT"

# --- catalog.json -------------------------------------------------------------------------------------------------
# The channel of each author (one per author, `UC` + 22 characters): subscriptions are to the author's channel.
channel_of() {
  case $1 in
    "VidFrame Samples") echo UCvidframeSamples0000000 ;;
    "VidFrame Studio") echo UCvidframeStudio00000000 ;;
    *) echo "make-media: no channel id for the author '$1'" >&2; exit 1 ;;
  esac
}

# video_json ID TITLE AUTHOR EMBEDDABLE BROKEN CAPTIONS("code:Name code:Name" or "") [FILES_OF [RULE]]
# FILES_OF: the id of another video whose files this entry plays (no media of its own); RULE: one more
# `"name": value` field, a viewer rule (`requiresSignIn`, `blockedRegions`, `heartbeatStopAfterSeconds`) or the
# video's `chapters`.
video_json() {
  local id=$1 title=$2 author=$3 embeddable=$4 broken=$5 captions=$6 files_of=${7:-$1} rule=${8:-}
  local dir="videos/$files_of" duration sep="" r name w h
  if [[ $broken == yes ]]; then
    duration="0.000" # ffprobe cannot read it: that is the point
  else
    duration="$(probe_duration "$OUT/$dir/medium.webm")"
  fi
  printf '    {\n'
  printf '      "id": %s,\n' "$(json_str "$id")"
  printf '      "title": %s,\n' "$(json_str "$title")"
  printf '      "author": %s,\n' "$(json_str "$author")"
  printf '      "channelId": %s,\n' "$(json_str "$(channel_of "$author")")"
  printf '      "durationSeconds": %s,\n' "$duration"
  printf '      "embeddable": %s,\n' "$embeddable"
  if [[ -n $rule ]]; then printf '      %s,\n' "$rule"; fi
  printf '      "poster": %s,\n' "$(json_str "$dir/poster.jpg")"
  printf '      "renditions": [\n'
  for r in "${RENDITIONS[@]}"; do
    read -r name w h _ <<<"$r"
    printf '%s        { "quality": %s, "width": %d, "height": %d, "file": %s, "mimeType": %s, "bytes": %d }' \
      "$sep" "$(json_str "$name")" "$w" "$h" "$(json_str "$dir/$name.webm")" "$(json_str "$MIME_TYPE")" \
      "$(file_bytes "$OUT/$dir/$name.webm")"
    sep=$',\n'
  done
  printf '\n      ],\n'
  if [[ -z $captions ]]; then
    printf '      "captions": []\n'
  else
    printf '      "captions": [\n'
    sep=""
    local c code lname
    for c in $captions; do
      code=${c%%:*}
      lname=${c#*:}
      printf '%s        { "languageCode": %s, "languageName": %s, "file": %s }' \
        "$sep" "$(json_str "$code")" "$(json_str "$lname")" "$(json_str "$dir/captions.$code.vtt")"
      sep=$',\n'
    done
    printf '\n      ]\n'
  fi
  printf '    }'
}

{
  printf '{\n  "videos": [\n'
  video_json VFsunrise01 "Sunrise over the test pattern" "VidFrame Samples" true no "en:English es:Spanish" VFsunrise01 \
    '"chapters": [{ "title": "Before dawn", "startSeconds": 0 }, { "title": "The horizon", "startSeconds": 4 }, { "title": "Full light", "startSeconds": 8 }]'
  printf ',\n'
  video_json VFcitylight "City lights" "VidFrame Samples" true no ""
  printf ',\n'
  video_json VFoceanwave "Ocean wave" "VidFrame Studio" true no ""
  printf ',\n'
  video_json VFbrokenvid "Broken upload" "VidFrame Samples" true yes ""
  printf ',\n'
  video_json VFnoembed01 "Not embeddable" "VidFrame Studio" false no ""
  printf ',\n'
  video_json VFmembers01 "Members only" "VidFrame Samples" true no "" VFcitylight '"requiresSignIn": true'
  printf ',\n'
  video_json VFregional1 "Regional broadcast" "VidFrame Studio" true no "" VFsunrise01 '"blockedRegions": ["DE"]'
  printf ',\n'
  video_json VFheartbt01 "Licensed screening" "VidFrame Studio" true no "" VFoceanwave '"heartbeatStopAfterSeconds": 4'
  printf ',\n%s' "$(sed 's/^/    /' "$OUT/entries/VFladder001.json")"
  printf '\n  ],\n'
  printf '  "playlists": [\n'
  printf '    { "id": "PLvfDemoPlaylist01", "title": "VidFrame demo playlist", "videoIds": ["VFsunrise01", "VFcitylight", "VFoceanwave"] }\n'
  printf '  ]\n}\n'
} >"$OUT/catalog.json"

# --- swap in ------------------------------------------------------------------------------------------------------
rm -rf "$OUT/entries"
mkdir -p "$MEDIA_DIR"
rm -rf "$MEDIA_DIR/videos" "$MEDIA_DIR/catalog.json"
cp -R "$OUT/videos" "$MEDIA_DIR/videos"
cp "$OUT/catalog.json" "$MEDIA_DIR/catalog.json"

echo "make-media: wrote $(find "$MEDIA_DIR/videos" -type f | wc -l | tr -d ' ') files," \
  "$(du -sk "$MEDIA_DIR/videos" | cut -f1) KiB, and media/catalog.json" >&2
