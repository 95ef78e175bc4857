# System packages this project builds against (Debian 12). Installed by scripts/install-deps.sh.
set(Boost_NO_WARN_NEW_VERSIONS ON)
find_package(Boost 1.81 EXACT REQUIRED COMPONENTS json)
find_package(spdlog REQUIRED)
find_package(fmt REQUIRED)
find_package(Threads REQUIRED)
find_package(pugixml REQUIRED)
find_package(ZLIB REQUIRED)
