#include "domains/midi/theory/gm.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

namespace fcp::midi::theory {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

int program_of(std::string_view name) {
  const auto found = find_instrument(name);
  EXPECT_TRUE(found) << name << ": " << found.error().message;
  return found ? (*found)->program : -1;
}

TEST(Gm, AllProgramsInOrderWithUniqueKebabNames) {
  const auto all = gm_instruments();
  ASSERT_EQ(all.size(), 128u);
  std::set<std::string_view> names;
  for (std::size_t p = 0; p < all.size(); ++p) {
    EXPECT_EQ(all[p].program, static_cast<int>(p));
    EXPECT_EQ(all[p].family, gm_families()[p / 8]);
    EXPECT_EQ(instrument_by_program(static_cast<int>(p)), &all[p]);
    names.insert(all[p].name);
    for (char c : all[p].name)
      EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') << all[p].name;
  }
  EXPECT_EQ(names.size(), 128u);
  EXPECT_EQ(all[0].name, "acoustic-grand-piano");
  EXPECT_EQ(all[40].name, "violin");
  EXPECT_EQ(all[87].name, "lead-8-bass-lead");
  EXPECT_EQ(all[103].name, "fx-8-sci-fi");
  EXPECT_EQ(all[127].name, "gunshot");
  EXPECT_EQ(gm_families().size(), 16u);
  EXPECT_EQ(instrument_by_program(128), nullptr);
  EXPECT_EQ(instrument_by_program(-1), nullptr);
}

TEST(Gm, EveryNameResolvesToItselfInAnySpelling) {
  for (const auto& instrument : gm_instruments()) {
    EXPECT_EQ(program_of(instrument.name), instrument.program);
    std::string spaced(instrument.name);
    for (char& c : spaced) {
      if (c == '-') c = ' ';
    }
    if (!spaced.empty()) spaced[0] = static_cast<char>(spaced[0] - 'a' + 'A');
    EXPECT_EQ(program_of(spaced), instrument.program) << spaced;
  }
  EXPECT_EQ(program_of("Acoustic Guitar (nylon)"), 24);
  EXPECT_EQ(program_of("Lead 8 (bass + lead)"), 87);
  EXPECT_EQ(program_of("ELECTRIC_PIANO_1"), 4);
}

TEST(Gm, AliasesAndUniquePartialNames) {
  EXPECT_EQ(program_of("piano"), 0);
  EXPECT_EQ(program_of("guitar"), 24);
  EXPECT_EQ(program_of("bass"), 33);
  EXPECT_EQ(program_of("strings"), 48);
  EXPECT_EQ(program_of("pad"), 88);
  EXPECT_EQ(program_of("harp"), 46);
  EXPECT_EQ(program_of("rhodes"), 4);
  EXPECT_EQ(program_of("sax"), 65);
  EXPECT_EQ(program_of("vibra"), 11);    // unique prefix
  EXPECT_EQ(program_of("sci-fi"), 103);  // unique substring
  EXPECT_EQ(program_of("glock"), 9);
}

TEST(Gm, ProgramNumbersAreZeroBasedAndBareNumbersAreRefused) {
  EXPECT_EQ(program_of("program:0"), 0);
  EXPECT_EQ(program_of("program:40"), 40);
  EXPECT_EQ(program_of("program:127"), 127);
  EXPECT_THAT(find_instrument("program:128").error().message, HasSubstr("0..127"));
  const auto bare = find_instrument("41");
  ASSERT_FALSE(bare);
  EXPECT_THAT(bare.error().message, HasSubstr("program:41 is viola"));
  EXPECT_THAT(bare.error().message, HasSubstr("GM chart #41 is program:40, violin"));
  EXPECT_THAT(bare.error().hints, ElementsAre("program:41", "program:40"));
  EXPECT_THAT(find_instrument("128").error().hints, ElementsAre("program:127"));
}

// The reference resolves these silently to the wrong instrument; here they are errors.
TEST(Gm, NoSilentWrongGuesses) {
  const auto drums = find_instrument("drums");
  ASSERT_FALSE(drums);  // the reference picks steel-drums (114)
  EXPECT_THAT(drums.error().message, HasSubstr("is a drum kit"));
  EXPECT_FALSE(find_instrument("percussion"));  // the reference picks percussive-organ (17)
  const auto typo = find_instrument("pianno");
  ASSERT_FALSE(typo);
  EXPECT_THAT(typo.error().message, HasSubstr("unknown instrument \"pianno\""));
  EXPECT_THAT(typo.error().hints, Contains("acoustic-grand-piano"));  // the alias "piano"
  // Words musicians use are aliases, found before any guess.
  EXPECT_EQ(find_instrument("Fender Rhodes").value()->name, "electric-piano-1");
  EXPECT_EQ(find_instrument("vibes").value()->name, "vibraphone");
  EXPECT_EQ(find_instrument("bass-guitar").value()->name, "electric-bass-finger");
  // The word of the name that names an instrument (the last one first) is the first hint.
  EXPECT_EQ(find_instrument("vintage-rhodes").error().hints.front(), "electric-piano-1");
  EXPECT_EQ(find_instrument("bass-clarinet").error().hints.front(), "clarinet");
  EXPECT_EQ(find_instrument("orchestra-strings").error().hints.front(), "string-ensemble-1");
  const auto ambiguous = find_instrument("synth-b");
  ASSERT_FALSE(ambiguous);
  EXPECT_THAT(ambiguous.error().message, HasSubstr("is ambiguous"));
  EXPECT_THAT(ambiguous.error().hints,
              ElementsAre("synth-bass-1", "synth-bass-2", "synth-brass-1", "synth-brass-2"));
  for (const auto& hint : ambiguous.error().hints)
    EXPECT_TRUE(find_instrument(hint));
  EXPECT_FALSE(find_instrument(""));
}

}  // namespace
}  // namespace fcp::midi::theory
