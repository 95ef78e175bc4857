# Find module for oscpack (Debian liboscpack-dev ships no CMake config).
# Defines the imported target Oscpack::oscpack.
find_path(Oscpack_INCLUDE_DIR NAMES osc/OscOutboundPacketStream.h PATH_SUFFIXES oscpack)
find_library(Oscpack_LIBRARY NAMES oscpack)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Oscpack REQUIRED_VARS Oscpack_LIBRARY Oscpack_INCLUDE_DIR)
if(Oscpack_FOUND AND NOT TARGET Oscpack::oscpack)
  add_library(Oscpack::oscpack UNKNOWN IMPORTED)
  set_target_properties(Oscpack::oscpack PROPERTIES IMPORTED_LOCATION "${Oscpack_LIBRARY}"
                                                    INTERFACE_INCLUDE_DIRECTORIES "${Oscpack_INCLUDE_DIR}")
endif()
mark_as_advanced(Oscpack_INCLUDE_DIR Oscpack_LIBRARY)
