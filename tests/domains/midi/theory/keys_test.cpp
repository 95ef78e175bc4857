#include "domains/midi/theory/keys.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace fcp::midi::theory {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(Keys, AllThirtyKeysRoundTrip) {
  for (int sharps = -7; sharps <= 7; ++sharps) {
    for (bool minor : {false, true}) {
      const std::string name = key_name(sharps, minor);
      const auto key = parse_key(name);
      ASSERT_TRUE(key) << name << ": " << key.error().message;
      EXPECT_EQ(key->sharps, sharps) << name;
      EXPECT_EQ(key->minor, minor) << name;
      EXPECT_EQ(key->name, name);
    }
  }
  EXPECT_EQ(key_name(8, false), "");
}

TEST(Keys, Spellings) {
  const auto check = [](std::string_view text, int sharps, bool minor, std::string_view name) {
    const auto key = parse_key(text);
    ASSERT_TRUE(key) << text << ": " << key.error().message;
    EXPECT_EQ(key->sharps, sharps) << text;
    EXPECT_EQ(key->minor, minor) << text;
    EXPECT_EQ(key->name, name) << text;
  };
  check("C", 0, false, "C");
  check("Am", 0, true, "Am");
  check("F#m", 3, true, "F#m");
  check("Bb", -2, false, "Bb");
  check("Ebm", -6, true, "Ebm");
  check("C major", 0, false, "C");
  check("A minor", 0, true, "Am");
  check("C-major", 0, false, "C");
  check("e-minor", 1, true, "Em");
  check("Dmin", -1, true, "Dm");
  check("bb", -2, false, "Bb");
  check("bbm", -5, true, "Bbm");
  check("Gb_Major", -6, false, "Gb");
  check("CM", 0, false, "C");
}

TEST(Keys, FlatKeysSpellWithFlats) {
  EXPECT_EQ(key_accidentals(parse_key("Fm")->sharps), Accidentals::flats);
  EXPECT_EQ(key_accidentals(parse_key("F")->sharps), Accidentals::flats);
  EXPECT_EQ(key_accidentals(parse_key("C")->sharps), Accidentals::sharps);
  EXPECT_EQ(key_accidentals(parse_key("Am")->sharps), Accidentals::sharps);
  EXPECT_EQ(key_accidentals(parse_key("E")->sharps), Accidentals::sharps);
}

TEST(Keys, ErrorsGiveTheEnharmonicOrTheModes) {
  const auto sharp = parse_key("G#");
  ASSERT_FALSE(sharp);
  EXPECT_THAT(sharp.error().message, HasSubstr("G# major would need 8 sharps"));
  EXPECT_THAT(sharp.error().hints, ElementsAre("Ab"));
  EXPECT_THAT(parse_key("Fbm").error().hints, ElementsAre("Em"));
  EXPECT_THAT(parse_key("Dbm").error().hints, ElementsAre("C#m"));
  const auto mode = parse_key("D dorian");
  EXPECT_THAT(mode.error().message, HasSubstr("unknown key mode \"dorian\""));
  EXPECT_THAT(mode.error().hints, ElementsAre("D", "Dm"));
  EXPECT_THAT(parse_key("H").error().message, HasSubstr("unknown key \"H\""));
  EXPECT_FALSE(parse_key(""));
}

}  // namespace
}  // namespace fcp::midi::theory
