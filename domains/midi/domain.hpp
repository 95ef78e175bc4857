// The midi domain: Standard MIDI Files through midi, midi_query, midi_session and midi_help.
#pragma once

#include <memory>

#include "core/domain.hpp"

namespace fcp::midi {

std::unique_ptr<core::Domain> make_midi_domain();

}  // namespace fcp::midi
