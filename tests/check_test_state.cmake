# ctest -P check: every test ctest knows in BUILD_DIR runs with XDG_STATE_HOME=STATE_DIR (set by
# tests/CMakeLists.txt), so no test daemon journals in the user's ~/.local/state/fcpd.
# Usage: cmake -DCTEST=… -DBUILD_DIR=… -DSTATE_DIR=… -P check_test_state.cmake
execute_process(COMMAND ${CTEST} --test-dir ${BUILD_DIR} --show-only=json-v1
                OUTPUT_VARIABLE listing RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "ctest --show-only failed (${status})")
endif()
string(JSON tests LENGTH "${listing}" tests)
string(REGEX MATCHALL "\"XDG_STATE_HOME=(set:)?${STATE_DIR}\"" isolated "${listing}")
list(LENGTH isolated count)
# A test binary not built yet stands as one NAME_NOT_BUILT test, which runs nothing.
string(REGEX MATCHALL "\"name\" : \"[A-Za-z0-9_]+_NOT_BUILT\"" unbuilt "${listing}")
list(LENGTH unbuilt unbuilt_count)
math(EXPR tests "${tests} - ${unbuilt_count}")
if(NOT count EQUAL tests)
  message(FATAL_ERROR "${count} of ${tests} tests run with XDG_STATE_HOME=${STATE_DIR}; the "
                      "others would write to the user's state directory")
endif()
message(STATUS "all ${tests} tests run with XDG_STATE_HOME=${STATE_DIR}")
