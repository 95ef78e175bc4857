# System packages this project builds against (Debian 12). Installed by scripts/install-deps.sh.
set(Boost_NO_WARN_NEW_VERSIONS ON)
find_package(Boost 1.81 EXACT REQUIRED COMPONENTS json)
find_package(spdlog REQUIRED)
find_package(fmt REQUIRED)
find_package(Threads REQUIRED)
find_package(pugixml REQUIRED)
find_package(ZLIB REQUIRED)
# mcp: HMAC-SHA256 seals the requestState of multi round-trip requests.
find_package(OpenSSL REQUIRED COMPONENTS Crypto)

# drawio: Graphviz lays out diagrams; librsvg + cairo rasterize exported SVG to PNG and PDF;
# libpng reads and writes the diagram text chunk of .drawio.png files.
find_package(PNG REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(GRAPHVIZ REQUIRED IMPORTED_TARGET libgvc libcgraph)
pkg_check_modules(RSVG REQUIRED IMPORTED_TARGET librsvg-2.0 cairo)

# midi: FluidSynth renders songs to audio with a General MIDI SoundFont; libsndfile (which
# FluidSynth writes its files with) encodes the rendering as FLAC or Ogg Vorbis.
pkg_check_modules(FLUIDSYNTH REQUIRED IMPORTED_TARGET fluidsynth)
pkg_check_modules(SNDFILE REQUIRED IMPORTED_TARGET sndfile)

# lofi: OSC encoding for the Max bridge.
find_package(Oscpack REQUIRED)
