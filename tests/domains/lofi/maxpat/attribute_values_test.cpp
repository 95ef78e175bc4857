// Attribute values get Max's JSON types and land where Max keeps them in a box.
#include "domains/lofi/maxpat/attribute_values.hpp"

#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "domains/lofi/maxpat/attributes.hpp"

namespace fcp::lofi::maxpat {
namespace {

namespace json = boost::json;

struct ValueCase {
  const char* name;
  const char* text;
  const char* saved;  // the JSON Max would save
};

class AttributeValue : public ::testing::TestWithParam<ValueCase> {};

TEST_P(AttributeValue, HasMaxsType) {
  const ValueCase& c = GetParam();
  EXPECT_EQ(attribute_value(c.name, c.text), json::parse(c.saved)) << c.name << ":" << c.text;
}

INSTANTIATE_TEST_SUITE_P(
    Table, AttributeValue,
    ::testing::Values(
        ValueCase{"bgcolor", "0.2 0.2 0.2 1", "[0.2, 0.2, 0.2, 1.0]"},
        ValueCase{"bgcolor", "0.2,0.2,0.2,1", "[0.2, 0.2, 0.2, 1.0]"},
        ValueCase{"bgcolor", "dark grey", "\"dark grey\""},
        ValueCase{"parameter_longname", "Wow Rate", "\"Wow Rate\""},
        ValueCase{"parameter_longname", "42", "\"42\""},
        ValueCase{"parameter_mmin", "0.05", "0.05"}, ValueCase{"parameter_mmax", "4", "4.0"},
        ValueCase{"parameter_mmax", "nan", "\"nan\""}, ValueCase{"parameter_unitstyle", "3", "3"},
        ValueCase{"parameter_unitstyle", "Hertz", "3"}, ValueCase{"parameter_unitstyle", "dB", "4"},
        ValueCase{"parameter_type", "0", "0"}, ValueCase{"parameter_initial_enable", "1", "1"},
        ValueCase{"parameter_initial", "0.5", "[0.5]"},
        ValueCase{"parameter_enum", "one two \"three four\"", "[\"one\", \"two\", \"three four\"]"},
        ValueCase{"_parameter_exponent", "2", "2.0"}, ValueCase{"presentation", "1", "1"},
        ValueCase{"fontsize", "12", "12.0"}, ValueCase{"some_new_attribute", "3", "3"},
        ValueCase{"some_new_attribute", "1 2.5 x", "[1, 2.5, \"x\"]"}));

TEST(AttributeValueProblem, SaysWhatMaxTakes) {
  EXPECT_EQ(attribute_value_problem("bgcolor", "0.2 0.2 0.2 1"), "");
  EXPECT_EQ(attribute_value_problem("parameter_unitstyle", "Hz"), "");
  EXPECT_EQ(attribute_value_problem("parameter_longname", "anything at all"), "");
  EXPECT_EQ(attribute_value_problem("bgcolor", "red"),
            "bgcolor takes a colour as numbers 0-1: \"r g b a\"; got \"red\"");
  EXPECT_NE(attribute_value_problem("parameter_unitstyle", "furlongs").find("hertz"),
            std::string::npos);
  EXPECT_EQ(attribute_value_problem("parameter_mmax", "lots"),
            "parameter_mmax takes a number; got \"lots\"");
  EXPECT_EQ(attribute_value_problem("presentation", "yes"),
            "presentation takes 0-1 or off, on; got \"yes\"");
}

// Ranges and named values come from the table of Max's attributes.
struct ProblemCase {
  const char* name;
  const char* text;
  const char* problem;  // "" = Max takes it
  const char* fix;      // the value meant, "" = none can be told
};

class AttributeRange : public ::testing::TestWithParam<ProblemCase> {};

TEST_P(AttributeRange, IsCheckedWithTheValueMeant) {
  const ProblemCase& c = GetParam();
  EXPECT_EQ(attribute_value_problem(c.name, c.text), c.problem) << c.name << ":" << c.text;
  EXPECT_EQ(attribute_value_fix(c.name, c.text), c.fix) << c.name << ":" << c.text;
}

INSTANTIATE_TEST_SUITE_P(
    Table, AttributeRange,
    ::testing::Values(
        ProblemCase{"parameter_unitstyle", "10", "", ""},
        ProblemCase{"parameter_unitstyle", "11",
                    "parameter_unitstyle takes 0-10 or int, float, time, hertz, decibel, %, pan, "
                    "semitones, midi, custom, native; got \"11\"",
                    "10"},
        ProblemCase{"parameter_unitstyle", "hertzz",
                    "parameter_unitstyle takes 0-10 or int, float, time, hertz, decibel, %, pan, "
                    "semitones, midi, custom, native; got \"hertzz\"",
                    "hertz"},
        ProblemCase{"parameter_type", "enum", "", ""},
        ProblemCase{"parameter_modmode", "bipolar", "", ""},
        ProblemCase{"parameter_steps", "-1",
                    "parameter_steps takes a whole number, at least 0; got \"-1\"", "0"},
        ProblemCase{"parameter_exponent", "-2",
                    "parameter_exponent takes a number, at least 0; got \"-2\"", "0"},
        ProblemCase{"presentation", "2", "presentation takes 0-1 or off, on; got \"2\"", "1"},
        ProblemCase{"presentation", "on", "", ""}, ProblemCase{"bgcolor", "1 0 0", "", ""},
        ProblemCase{"bgcolor", "2 0 0 1",
                    "bgcolor takes a colour as numbers 0-1: \"r g b a\"; got \"2 0 0 1\"", ""},
        ProblemCase{"presentation_rect", "0 0 44",
                    "presentation_rect takes 4 numbers: \"x y width height\"; got \"0 0 44\"", ""},
        ProblemCase{"fontface", "bold italic", "", ""},
        ProblemCase{"parameter_longname", "", "", ""}));

TEST(CanonicalText, IsTheTextOfWhatMaxSaves) {
  EXPECT_EQ(canonical_attribute_text("parameter_unitstyle", "Hertz"), "3");
  EXPECT_EQ(canonical_attribute_text("parameter_mmax", "4."), "4");
  EXPECT_EQ(canonical_attribute_text("bgcolor", "1,0,0"), "1 0 0 1");
  EXPECT_EQ(canonical_attribute_text("parameter_initial", "0.5"), "0.5");
  EXPECT_EQ(canonical_attribute_text("parameter_longname", "Wow  Rate"), "Wow  Rate");
  EXPECT_EQ(canonical_attribute_text("presentation", "on"), "1");
}

TEST(AttributeText, IsWhatAnAgentWouldWrite) {
  std::string text;
  ASSERT_TRUE(attribute_text(json::parse("[0.2, 0.2, 0.2, 1.0]"), text));
  EXPECT_EQ(text, "0.2 0.2 0.2 1");
  ASSERT_TRUE(attribute_text(json::parse("[\"one\", \"three four\"]"), text));
  EXPECT_EQ(text, "one \"three four\"");
  ASSERT_TRUE(attribute_text(json::parse("\"Wow Rate\""), text));
  EXPECT_EQ(text, "Wow Rate");
  ASSERT_TRUE(attribute_text(json::parse("4.0"), text));
  EXPECT_EQ(text, "4");
  EXPECT_FALSE(attribute_text(json::parse("{\"expression\": \"\"}"), text));
}

TEST(BoxAttributes, ParameterAttributesGoIntoValueofInMaxsOrder) {
  json::object box = json::parse(R"({"id": "obj-1", "maxclass": "live.dial",
      "patching_rect": [0.0, 0.0, 41.0, 48.0], "varname": "wow"})")
                         .as_object();
  put_box_attribute(box, "parameter_mmax", "4");
  put_box_attribute(box, "parameter_longname", "Wow Rate");
  put_box_attribute(box, "bgcolor", "0 0 0 1");
  EXPECT_EQ(json::serialize(box),
            R"({"bgcolor":[0E0,0E0,0E0,1E0],"id":"obj-1","maxclass":"live.dial",)"
            R"("parameter_enable":1,"patching_rect":[0E0,0E0,4.1E1,4.8E1],)"
            R"("saved_attribute_attributes":{"valueof":{"parameter_longname":"Wow Rate",)"
            R"("parameter_mmax":4E0}},"varname":"wow"})");
  EXPECT_EQ(
      box_attribute_texts(box),
      (std::map<std::string, std::string>{
          {"bgcolor", "0 0 0 1"}, {"parameter_longname", "Wow Rate"}, {"parameter_mmax", "4"}}));
  erase_box_attribute(box, "parameter_longname");
  erase_box_attribute(box, "parameter_mmax");
  EXPECT_FALSE(box.contains("saved_attribute_attributes"));
  erase_box_attribute(box, "bgcolor");
  EXPECT_EQ(box.begin()->key(), "id") << "erasing keeps the order of the other keys";
}

TEST(BoxAttributes, AKeyThatIsThereKeepsItsPlace) {
  json::object box =
      json::parse(R"({"varname": "x", "bgcolor": [1.0, 1.0, 1.0, 1.0]})").as_object();
  put_box_attribute(box, "bgcolor", "0 0 0 1");
  EXPECT_EQ(box.begin()->key(), "varname");
  EXPECT_EQ(box.at("bgcolor"), json::parse("[0.0, 0.0, 0.0, 1.0]"));
}

// Which classes have an attribute: every box its common attributes, UI objects their colours,
// the live.* objects their own, objects that can be Live parameters the parameter attributes;
// the device's settings no box; a class the object table lacks anything a box can have.
struct OwnerCase {
  const char* cls;
  const char* attribute;
  bool has;
};

class AttributeOwners : public ::testing::TestWithParam<OwnerCase> {};

TEST_P(AttributeOwners, FollowTheClass) {
  const OwnerCase& c = GetParam();
  const AttributeSpec* spec = find_attribute(c.attribute);
  ASSERT_NE(spec, nullptr) << c.attribute;
  EXPECT_EQ(class_has_attribute(c.cls, *spec), c.has) << c.cls << " " << c.attribute;
}

INSTANTIATE_TEST_SUITE_P(Table, AttributeOwners,
                         ::testing::Values(OwnerCase{"cycle~", "hidden", true},
                                           OwnerCase{"cycle~", "bgcolor", false},
                                           OwnerCase{"cycle~", "parameter_longname", false},
                                           OwnerCase{"live.dial", "parameter_unitstyle", true},
                                           OwnerCase{"live.dial", "activedialcolor", true},
                                           OwnerCase{"panel", "activedialcolor", false},
                                           OwnerCase{"panel", "bgcolor", true},
                                           OwnerCase{"panel", "parameter_longname", false},
                                           OwnerCase{"dial", "parameter_longname", true},
                                           OwnerCase{"comment", "textcolor", true},
                                           OwnerCase{"v8", "autowatch", true},
                                           OwnerCase{"cycle~", "autowatch", false},
                                           OwnerCase{"live.dial", "devicewidth", false},
                                           OwnerCase{"some.external", "bgcolor", true},
                                           OwnerCase{"some.external", "openinpresentation", false},
                                           OwnerCase{"live.dial", "_parameter_longname", true}));

TEST(AttributeTable, NamedValuesAreMaxsCodes) {
  const AttributeSpec& unit = *find_attribute("parameter_unitstyle");
  EXPECT_EQ(choices_text(unit),
            "0-10 or int, float, time, hertz, decibel, %, pan, semitones, midi, custom, native");
  EXPECT_EQ(choice_code(unit, "Hz"), 3);
  EXPECT_EQ(choice_code(unit, "ms"), 2);
  EXPECT_EQ(choice_name(unit, 4), "decibel");
  EXPECT_EQ(choice_code(*find_attribute("parameter_type"), "enum"), 2);
  EXPECT_EQ(unit_style_code("semitones"), 7);
  const auto dial = attributes_of("live.dial");
  EXPECT_NE(std::find(dial.begin(), dial.end(), "parameter_initial"), dial.end());
  const auto osc = attributes_of("cycle~");
  EXPECT_EQ(std::find(osc.begin(), osc.end(), "parameter_initial"), osc.end());
}

}  // namespace
}  // namespace fcp::lofi::maxpat
