// Meta and channel event helpers: decoding what files hold, building what the writer stores.
#include "domains/midi/smf/meta.hpp"

#include <gtest/gtest.h>

#include "smf_test_support.hpp"

namespace fcp::midi::smf {
namespace {

using testing::bytes;
using testing::hex;
using testing::meta_event;

TEST(MetaTest, BuildersProduceTheSpecBytes) {
  EXPECT_EQ(hex(make_tempo(500000).data), "07 a1 20");
  EXPECT_EQ(make_tempo(500000, 960).tick, 960u);
  EXPECT_EQ(hex(make_tempo(0x12345678).data), "ff ff ff");
  EXPECT_EQ(hex(make_time_signature(6, 3).data), "06 03 18 08");
  EXPECT_EQ(hex(make_time_signature(TimeSignature{7, 3, 36, 8}).data), "07 03 24 08");
  EXPECT_EQ(hex(make_key_signature(-3, false).data), "fd 00");
  EXPECT_EQ(hex(make_key_signature(4, true).data), "04 01");
  EXPECT_EQ(make_track_name("Bass").meta_type, meta::track_name);
  EXPECT_EQ(make_marker("Drop", 19200), meta_event(19200, 0x06, "Drop"));
  EXPECT_EQ(make_lyric("la"), meta_event(0, 0x05, "la"));
  EXPECT_EQ(make_text(meta::copyright, "(c)"), meta_event(0, 0x02, "(c)"));
  EXPECT_EQ(make_end_of_track(5), meta_event(5, 0x2F, ""));
}

TEST(MetaTest, DecodersReadTheSpecBytes) {
  EXPECT_EQ(tempo_of(meta_event(0, 0x51, bytes({0x07, 0xA1, 0x20}))), 500000u);
  EXPECT_EQ(tempo_of(meta_event(0, 0x51, bytes({0x07, 0xA1}))), std::nullopt);
  EXPECT_EQ(tempo_of(meta_event(0, 0x58, bytes({0x07, 0xA1, 0x20}))), std::nullopt);
  EXPECT_EQ(time_signature_of(meta_event(0, 0x58, bytes({6, 3, 24, 8}))),
            (TimeSignature{6, 3, 24, 8}));
  EXPECT_EQ(time_signature_of(meta_event(0, 0x58, bytes({6, 3, 24, 8})))->denominator(), 8);
  EXPECT_EQ((TimeSignature{4, 200, 24, 8}).denominator(), 0);
  EXPECT_EQ(key_signature_of(meta_event(0, 0x59, bytes({0xF9, 1}))), (KeySignature{-7, true}));
  EXPECT_EQ(key_signature_of(meta_event(0, 0x59, bytes({7}))), std::nullopt);
  EXPECT_EQ(text_of(meta_event(0, 0x0F, "x")), "x");
  EXPECT_EQ(text_of(meta_event(0, 0x10, "x")), std::nullopt);
  EXPECT_EQ(text_of(meta_event(0, 0x00, "x")), std::nullopt);
}

TEST(MetaTest, BuildersAndDecodersAgree) {
  for (std::uint32_t us : {1u, 250000u, 500000u, 0xFFFFFFu}) {
    EXPECT_EQ(tempo_of(make_tempo(us)), us);
  }
  for (int sf = -7; sf <= 7; ++sf) {
    EXPECT_EQ(key_signature_of(make_key_signature(sf, sf % 2 != 0)),
              (KeySignature{sf, sf % 2 != 0}));
  }
  for (int value : {-8192, -1, 0, 1, 4096, 8191}) {
    EXPECT_EQ(pitch_bend_of(make_pitch_bend(3, value)), value);
  }
  EXPECT_EQ(pitch_bend_of(make_pitch_bend(0, 99999)), 8191);
  EXPECT_EQ(hex(make_pitch_bend(0, 0).data), "00 40");
}

TEST(MetaTest, BpmConversions) {
  EXPECT_EQ(us_from_bpm(120), 500000u);
  EXPECT_EQ(us_from_bpm(140), 428571u);
  EXPECT_EQ(us_from_bpm(0), 0xFFFFFFu);
  EXPECT_EQ(us_from_bpm(1e12), 1u);
  EXPECT_DOUBLE_EQ(bpm_from_us(500000), 120.0);
  EXPECT_DOUBLE_EQ(bpm_from_us(400000), 150.0);
}

TEST(MetaTest, ChannelMessageBuildersAndEventAccessors) {
  const Event on = make_note_on(9, 36, 100, 10);
  EXPECT_EQ(on.status, 0x99);
  EXPECT_TRUE(on.is_channel());
  EXPECT_TRUE(on.is_note_on());
  EXPECT_FALSE(on.is_note_off());
  EXPECT_EQ(on.channel(), 9);
  EXPECT_EQ(on.kind(), 0x90);
  EXPECT_EQ(on.data1(), 36);
  EXPECT_EQ(on.data2(), 100);
  EXPECT_TRUE(make_note_on(0, 36, 0).is_note_off());
  EXPECT_FALSE(make_note_on(0, 36, 0).is_note_on());
  EXPECT_TRUE(make_note_off(0, 36, 64).is_note_off());
  EXPECT_EQ(hex(make_note_on(16, 200, 128).data), "48 00");  // masked to 7 bits
  EXPECT_EQ(make_note_on(16, 60, 1).status, 0x90);           // channel masked to 4 bits
  EXPECT_EQ(hex(make_control_change(2, 7, 100).data), "07 64");
  EXPECT_EQ(make_control_change(2, 7, 100).status, 0xB2);
  EXPECT_EQ(make_program_change(1, 33).data, "\x21");
  EXPECT_EQ(make_channel_pressure(1, 5).status, 0xD1);
  EXPECT_EQ(hex(make_poly_pressure(1, 60, 5).data), "3c 05");
  EXPECT_EQ(make_sysex("\x7E\x7F\x09\x01"),
            testing::event(0, 0xF0, {0x7E, 0x7F, 0x09, 0x01, 0xF7}));
  EXPECT_TRUE(make_sysex("").is_sysex());
  EXPECT_FALSE(make_tempo(1).is_channel());
  EXPECT_TRUE(is_meta(make_tempo(1), meta::tempo));
  EXPECT_EQ(channel_data_length(0xC5), 1u);
  EXPECT_EQ(channel_data_length(0xE5), 2u);
  EXPECT_EQ(channel_data_length(0xF0), 0u);
}

}  // namespace
}  // namespace fcp::midi::smf
