// The op contract's suggestions beyond one key: several undeclared keys fixed in one `try:`,
// synonyms that split a range value, keys an open key set offers for a typo, and verb synonyms
// of two words.
#include <gtest/gtest.h>

#include <array>

#include "core/op_contract.hpp"

namespace fcp::core {
namespace {

constexpr std::array<std::string_view, 3> kAttributes{"bgcolor", "parameter_mmin",
                                                      "parameter_mmax"};

class OpContractSynonyms : public ::testing::Test {
 protected:
  OpContractSynonyms() {
    registry_.add(VerbSpec{"wire", "SRC -> DST", "wires", "cords"}
                      .with(integer_key("out"))
                      .with(integer_key("in"))
                      .arrows());
    registry_.add(VerbSpec{"modify", "ID", "objects", "attributes"}
                      .with(key("args", "A"))
                      .accepting({"any attribute",
                                  [](std::string_view name) {
                                    return std::find(kAttributes.begin(), kAttributes.end(),
                                                     name) != kAttributes.end();
                                  },
                                  kAttributes}));
    registry_.add(VerbSpec{"track", "add|remove NAME", "state", "tracks"}.deletes());
    registry_.add_key_synonym("outlet", "out:{}");
    registry_.add_key_synonym("inlet", "in:{}");
    registry_.add_key_synonym("range", "parameter_mmin:{1} parameter_mmax:{2}");
    registry_.add_verb_synonym("add track", "track add");
    registry_.add_verb_synonym("add", "modify");
  }

  // The error `op` gets from its verb's keys.
  Error refusal(std::string_view text) {
    auto op = parse_op(text).value();
    auto checked = check_op_keys(*registry_.find(op.verb), op, registry_.key_synonyms());
    EXPECT_FALSE(checked) << text;
    return checked ? Error{} : checked.error();
  }

  VerbRegistry registry_;
};

TEST_F(OpContractSynonyms, EveryUndeclaredKeyIsFixedInOneTry) {
  const auto error = refusal("wire a -> b outlet:1 inlet:2");
  EXPECT_EQ(error.message, "wire has no keys \"outlet:\" \"inlet:\"; its keys: out: in:");
  EXPECT_EQ(error.hints, std::vector<std::string>{"wire a -> b out:1 in:2"});
  EXPECT_EQ(refusal("wire a -> b outlet:1 zzbogus:2").hints,
            std::vector<std::string>{"wire a -> b out:1"});
  // A synonym of a key the op already gives is dropped, not made a duplicate.
  EXPECT_EQ(refusal("wire a -> b outlet:1 out:2").hints,
            std::vector<std::string>{"wire a -> b out:2"});
}

TEST_F(OpContractSynonyms, ARangeValueFillsBothEnds) {
  EXPECT_EQ(refusal("modify mix range:0-100").hints,
            std::vector<std::string>{"modify mix parameter_mmin:0 parameter_mmax:100"});
  EXPECT_EQ(refusal("modify mix range:-1..1").hints,
            std::vector<std::string>{"modify mix parameter_mmin:-1 parameter_mmax:1"});
  // No range: the synonym does not fit, and the key is dropped.
  EXPECT_EQ(refusal("modify mix range:wide").hints, std::vector<std::string>{"modify mix"});
}

TEST_F(OpContractSynonyms, OpenKeysOfferTheirNamesForATypo) {
  EXPECT_EQ(refusal("modify mix bgcolour:red").hints,
            std::vector<std::string>{"modify mix bgcolor:red"});
}

// A key written in the wrong case is the open key of that name, not a declared key one letter
// away: `exitx:0.5` means `exitX:0.5` (a draw.io port fraction), never `exit:0.5` (a face).
TEST(OpContractOpenKeys, ACaseSlipNamesTheOpenKeyBeforeAClosebyDeclaredOne) {
  static constexpr std::array<std::string_view, 2> kPorts{"exitX", "exitY"};
  VerbRegistry registry;
  registry.add(VerbSpec{"style", "REF", "look", "style"}
                   .with(key("exit", "FACE"))
                   .accepting({"port keys",
                               [](std::string_view name) {
                                 return std::find(kPorts.begin(), kPorts.end(), name) !=
                                        kPorts.end();
                               },
                               kPorts}));
  auto op = parse_op("style a exitx:0.5").value();
  auto checked = check_op_keys(*registry.find(op.verb), op, registry.key_synonyms());
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.error().hints, std::vector<std::string>{"style a exitX:0.5"});
  // A typo that is no case slip still goes to the declared key.
  op = parse_op("style a exot:top").value();
  checked = check_op_keys(*registry.find(op.verb), op, registry.key_synonyms());
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.error().hints, std::vector<std::string>{"style a exit:top"});
}

TEST_F(OpContractSynonyms, TwoWordVerbSynonymsComeFirst) {
  const auto op = parse_op("add track Bass ch:2").value();
  EXPECT_EQ(unknown_verb_error(registry_, op, "test").hints,
            std::vector<std::string>{"track add Bass ch:2"});
  const auto other = parse_op("add mix args:1").value();
  EXPECT_EQ(unknown_verb_error(registry_, other, "test").hints,
            std::vector<std::string>{"modify mix args:1"});
  const auto quoted = parse_op("add \"track\" x").value();
  EXPECT_EQ(unknown_verb_error(registry_, quoted, "test").hints,
            std::vector<std::string>{"modify \"track\" x"});
}

}  // namespace
}  // namespace fcp::core
