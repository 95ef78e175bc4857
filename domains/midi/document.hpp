// The midi document: the Song, the relative-position anchor (where the last written note
// ended) and an open tracker import block.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/domain.hpp"
#include "domains/midi/edit.hpp"
#include "domains/midi/song.hpp"

namespace fcp::midi {

// A `tracker TRACK import` block collecting step lines until `tracker end`, in one call.
struct TrackerBlock {
  EntityId track = 0;
  Tick start = 0;
  std::uint32_t step = 0;  // ticks per step
  std::vector<std::string> lines;
  std::string opened_by;  // the import op as written
};

// Thread: owned by one session and only touched from that session's strand.
// Memory estimates for limits.max_document_bytes, from bench_big's peak RSS (bench/README.md,
// `bench_big` open of the generated 10 M-event file: 0.92 GB peak for 5 M notes and 40 MB of
// file, the bytes read and the model together): about 190 bytes an entity (a note is two
// events), 23 per file byte.
inline constexpr std::size_t kBytesPerEntity = 190;
inline constexpr std::size_t kBytesPerFileByte = 23;

class MidiDocument final : public core::Document {
 public:
  explicit MidiDocument(Song song);

  core::Result<core::OpOutcome> execute(const core::ParsedOp& op, core::CallContext& ctx) override;
  void revert(const core::Event& event, core::EffectSink& effects) override;
  void replay(const core::Event& event, core::EffectSink& effects) override;
  std::optional<core::Error> close_open_block() override;
  std::optional<core::Result<core::QueryAnswer>> query(std::string_view verb, std::string_view args,
                                                       const core::CallContext& ctx) const override;
  std::vector<std::string> status_lines() const override;
  std::string digest() const override;
  std::size_t entity_count() const override;
  std::size_t estimated_bytes() const override { return entity_count() * kBytesPerEntity; }
  std::string help_additions() const override;
  std::vector<std::string> warnings(std::span<const core::EventPtr> batch,
                                    core::Applied applied) const override;
  core::Result<std::string> serialize(const std::filesystem::path& path) const override;
  std::string title() const override;
  std::string summary() const override;

  const Song& song() const { return song_; }
  Song& mutable_song() { return song_; }
  std::optional<Tick> anchor() const { return anchor_; }
  void set_anchor(std::optional<Tick> tick) { anchor_ = tick; }
  std::optional<TrackerBlock>& tracker_block() { return tracker_; }
  // SoundFont presets loaded with load-soundfont (bank, program, name), shown by `instruments`.
  struct Preset {
    int bank = 0, program = 0;
    std::string name;
  };
  const std::vector<Preset>& soundfont_presets() const { return presets_; }
  const std::string& soundfont_path() const { return soundfont_; }
  void set_soundfont(std::string path, std::vector<Preset> presets) {
    soundfont_ = std::move(path);
    presets_ = std::move(presets);
  }
  void set_fallback_title(std::string title) { fallback_title_ = std::move(title); }
  // What the last audio render made ("song.wav", "a preview") and the SoundFont it used ("" before
  // one), for status: a song without a loaded SoundFont is rendered with the default GM one.
  void set_last_render(std::string what, std::string soundfont) {
    last_render_ = std::move(what);
    last_render_soundfont_ = std::move(soundfont);
  }

 private:
  Song song_;
  std::optional<Tick> anchor_;
  std::optional<TrackerBlock> tracker_;
  std::string soundfont_;
  std::vector<Preset> presets_;
  std::string fallback_title_;
  std::string last_render_, last_render_soundfont_;
};

}  // namespace fcp::midi
