"""Fails when a test ctest knows would run without XDG_STATE_HOME=STATE_DIR (tests/CMakeLists.txt
sets it for every test), i.e. could journal in the user's ~/.local/state/fcpd.

Usage: python3 check_test_state.py CTEST BUILD_DIR STATE_DIR
"""
import json
import subprocess
import sys

ctest, build_dir, state_dir = sys.argv[1:4]
listing = json.loads(
    subprocess.run([ctest, "--test-dir", build_dir, "--show-only=json-v1"], check=True,
                   capture_output=True, text=True).stdout)
wanted = {"XDG_STATE_HOME=" + state_dir, "XDG_STATE_HOME=set:" + state_dir}
missing = []
for test in listing["tests"]:
    # A test binary not built yet stands as one NAME_NOT_BUILT test, which runs nothing.
    if test["name"].endswith("_NOT_BUILT"):
        continue
    values = [value for prop in test.get("properties", [])
              if prop["name"] in ("ENVIRONMENT", "ENVIRONMENT_MODIFICATION")
              for value in prop["value"]]
    if not wanted.intersection(values):
        missing.append(test["name"])
if missing:
    print(f"{len(missing)} of {len(listing['tests'])} tests run without XDG_STATE_HOME={state_dir} "
          "and could write to the user's state directory:", ", ".join(missing[:20]))
    sys.exit(1)
print(f"all {len(listing['tests'])} tests run with XDG_STATE_HOME={state_dir}")
