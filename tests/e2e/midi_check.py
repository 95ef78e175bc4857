#!/usr/bin/python3
"""Reads Standard MIDI Files with mido (an independent parser) and prints them as JSON.

Usage: /usr/bin/python3 midi_check.py FILE...   (Debian's python3-mido)

Output: {"FILE": {"type": 1, "ticks_per_beat": 480, "tracks": [{"name": "…", "events": [...]}]}}
or {"FILE": {"error": "…"}} when mido cannot read the file. Every event is a list starting with
its absolute tick (the sum of the deltas in its track) and its mido type:
  channel messages   [tick, type, channel (0-15), note|control|program|None, velocity|value|pitch|None]
  set_tempo          [tick, "set_tempo", tempo (µs per quarter)]
  time_signature     [tick, "time_signature", numerator, denominator]
  key_signature      [tick, "key_signature", key]
  marker, track_name, text, lyrics, … (text metas)   [tick, type, text]
  sysex              [tick, "sysex", [data bytes]]
  other metas        [tick, type, type byte, [data bytes]] or [tick, type, {fields}]
end_of_track is left out (mido always reports one).
"""
import json
import sys

import mido

TEXT_METAS = {"marker", "track_name", "text", "lyrics", "copyright", "instrument_name", "cue_marker",
              "device_name", "program_name"}


def event_of(tick, msg):
    t = msg.type
    if not msg.is_meta and t != "sysex":
        if t in ("note_on", "note_off"):
            return [tick, t, msg.channel, msg.note, msg.velocity]
        if t == "control_change":
            return [tick, t, msg.channel, msg.control, msg.value]
        if t == "program_change":
            return [tick, t, msg.channel, msg.program, None]
        if t == "pitchwheel":
            return [tick, t, msg.channel, None, msg.pitch]
        if t == "aftertouch":
            return [tick, t, msg.channel, None, msg.value]
        if t == "polytouch":
            return [tick, t, msg.channel, msg.note, msg.value]
        return [tick, t, getattr(msg, "channel", None), None, None]
    if t == "sysex":
        return [tick, t, list(msg.data)]
    if t == "set_tempo":
        return [tick, t, msg.tempo]
    if t == "time_signature":
        return [tick, t, msg.numerator, msg.denominator]
    if t == "key_signature":
        return [tick, t, msg.key]
    if t in TEXT_METAS:
        return [tick, t, msg.text if hasattr(msg, "text") else msg.name]
    if hasattr(msg, "data"):  # sequencer_specific, unknown meta types
        return [tick, t, getattr(msg, "type_byte", None), list(msg.data)]
    fields = {k: (list(v) if isinstance(v, (bytes, bytearray, tuple)) else v)
              for k, v in vars(msg).items() if k != "time"}
    return [tick, t, fields]


def read(path):
    try:
        mid = mido.MidiFile(path)  # strict by default: malformed files raise
    except Exception as error:  # noqa: BLE001 — any failure is reported, not raised
        return {"error": f"{type(error).__name__}: {error}"}
    tracks = []
    for track in mid.tracks:
        tick = 0
        events = []
        for msg in track:
            tick += msg.time
            if msg.type == "end_of_track":
                continue
            events.append(event_of(tick, msg))
        tracks.append({"name": track.name, "events": events})
    return {"type": mid.type, "ticks_per_beat": mid.ticks_per_beat, "tracks": tracks}


def main(paths):
    json.dump({p: read(p) for p in paths}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
