// The op contract: declared keys, aliases, kinds, forms, synonyms, glued arrows, unknown verbs —
// checked on their own and through a Session with the test domain.
#include "core/op_contract.hpp"

#include <gtest/gtest.h>

#include "core/session.hpp"
#include "tests/support/op_contract_checks.hpp"
#include "tests/support/path_policies.hpp"
#include "tests/support/test_domain.hpp"

namespace fcp::core {
namespace {

VerbRegistry make_registry() {
  VerbRegistry registry;
  registry.add(VerbSpec{"add", "[TYPE] LABEL", "shapes", "create"}
                   .with(key("near", "REF"))
                   .with(choice_key("dir", {"below", "above", "left", "right"}))
                   .with(key("theme", "T"))
                   .with(integer_key("count"))
                   .with(bool_key("strict")));
  registry.add(VerbSpec{"track", "add|rename NAME", "tracks", "tracks"}
                   .with(key("to", "NEW").only_for({"rename"}))
                   .with(key("instrument", "INST").also({"inst"}).only_for({"add"})));
  registry.add(VerbSpec{"resize", "REF", "position", "size"}
                   .with(key("to", "WxH").require())
                   .example("resize Gateway to:160x80"));
  registry.add(VerbSpec{"fade", "REF", "any", "ranges"}
                   .with(integer_key("steps").between(1, 16))
                   .with(number_key("gain").between(-60, 6)));
  registry.add(VerbSpec{"connect", "A -> B", "edges", "edges"}.arrows().with(key("label", "T")));
  registry.add(VerbSpec{"remove", "REF", "shapes", "delete"}.deletes());
  registry.add(VerbSpec{"stamp", "REF", "any", "mark"}
                   .with(key("at", "POS").places("1.1").apart_from({"over"}))
                   .with(key("over", "RANGE")));
  registry.add(VerbSpec{"label", "REF TEXT", "shapes", "rename"});
  registry.add(VerbSpec{"modify", "REF", "any", "set"}.through_keys().accepting(
      {"any style key", [](std::string_view name) { return name == "fillColor"; }}));
  registry.add_key_synonym("below", "near:{} dir:below");
  registry.add_key_synonym("colour", "theme:{}");
  registry.add_key_synonym("name", "to:{}", "track");
  registry.add_verb_synonym("rename", "label");
  registry.add_verb_synonym("delete", "remove");
  return registry;
}

struct Checked {
  bool ok = false;
  Error error;
  ParsedOp op;
};

Checked check(const VerbRegistry& registry, std::string_view text) {
  auto parsed = parse_op(text);
  EXPECT_TRUE(parsed) << text;
  Checked out;
  out.op = *parsed;
  const VerbSpec* spec = registry.find(out.op.verb);
  EXPECT_NE(spec, nullptr) << text;
  auto result = check_op_keys(*spec, out.op, registry.key_synonyms());
  out.ok = static_cast<bool>(result);
  if (!result) out.error = result.error();
  return out;
}

TEST(OpContract, DeclaredKeysPass) {
  const auto registry = make_registry();
  EXPECT_TRUE(check(registry, "add svc Auth near:Web dir:below theme:blue count:2").ok);
  EXPECT_TRUE(check(registry, "add svc Auth dir:BELOW").ok);  // choices ignore case
}

TEST(OpContract, UndeclaredKeyNamesItListsKeysAndSuggestsTheSynonym) {
  const auto registry = make_registry();
  auto checked = check(registry, "add svc Shipping below:OrdersDB");
  ASSERT_FALSE(checked.ok);
  EXPECT_EQ(checked.error.message,
            "add has no key \"below:\"; its keys: near: dir: theme: count: strict:");
  ASSERT_EQ(checked.error.hints.size(), 1u);
  EXPECT_EQ(checked.error.hints[0], "add svc Shipping near:OrdersDB dir:below");
  EXPECT_TRUE(parse_op(checked.error.hints[0]));
}

TEST(OpContract, SynonymKeepsTheValueAsWritten) {
  const auto registry = make_registry();
  auto checked = check(registry, "add svc \"Order API\" below:\"Orders DB\" theme:blue");
  ASSERT_FALSE(checked.ok);
  ASSERT_EQ(checked.error.hints.size(), 1u);
  EXPECT_EQ(checked.error.hints[0],
            "add svc \"Order API\" near:\"Orders DB\" dir:below theme:blue");
}

TEST(OpContract, SynonymIsNotOfferedWhenItsKeyIsAlreadyGiven) {
  const auto registry = make_registry();
  auto checked = check(registry, "add svc A theme:red colour:blue");
  ASSERT_FALSE(checked.ok);
  ASSERT_EQ(checked.error.hints.size(), 1u);
  EXPECT_EQ(checked.error.hints[0], "add svc A theme:red");  // dropped, not a second theme:
}

TEST(OpContract, MisspeltKeySuggestsTheClosestDeclaredKey) {
  const auto registry = make_registry();
  auto checked = check(registry, "add svc A thme:blue");
  ASSERT_FALSE(checked.ok);
  ASSERT_EQ(checked.error.hints.size(), 1u);
  EXPECT_EQ(checked.error.hints[0], "add svc A theme:blue");
}

TEST(OpContract, UnrelatedKeySuggestsTheOpWithoutIt) {
  const auto registry = make_registry();
  auto checked = check(registry, "add svc A zzbogus:1 theme:blue");
  ASSERT_FALSE(checked.ok);
  EXPECT_NE(checked.error.message.find("\"zzbogus:\""), std::string::npos);
  ASSERT_EQ(checked.error.hints.size(), 1u);
  EXPECT_EQ(checked.error.hints[0], "add svc A theme:blue");
}

TEST(OpContract, AVerbThatWorksThroughKeysIsNotOfferedTheOpWithoutAnyKey) {
  const auto registry = make_registry();
  auto alone = check(registry, "modify A zzbogus:1");
  ASSERT_FALSE(alone.ok);
  EXPECT_NE(alone.error.message.find("\"zzbogus:\""), std::string::npos);
  EXPECT_TRUE(alone.error.hints.empty()) << alone.error.hints[0];
  auto beside = check(registry, "modify A zzbogus:1 fillColor:red");
  ASSERT_FALSE(beside.ok);
  ASSERT_EQ(beside.error.hints.size(), 1u);
  EXPECT_EQ(beside.error.hints[0], "modify A fillColor:red");
}

TEST(OpContract, AliasIsRewrittenToTheKeyName) {
  const auto registry = make_registry();
  auto checked = check(registry, "track add Keys inst:piano");
  ASSERT_TRUE(checked.ok) << checked.error.message;
  ASSERT_EQ(checked.op.params.size(), 1u);
  EXPECT_EQ(checked.op.params[0].key, "instrument");
  EXPECT_EQ(checked.op.params[0].value, "piano");
}

TEST(OpContract, AliasAndKeyTogetherAreRefused) {
  const auto registry = make_registry();
  EXPECT_FALSE(check(registry, "track add Keys inst:piano instrument:organ").ok);
}

TEST(OpContract, KeyOfAnotherFormIsRefused) {
  const auto registry = make_registry();
  EXPECT_TRUE(check(registry, "track rename Keys to:Piano").ok);
  auto checked = check(registry, "track add Keys to:Piano");
  ASSERT_FALSE(checked.ok);
  EXPECT_EQ(checked.error.message, "to: belongs to track rename, not to this form of track");
  EXPECT_EQ(checked.error.hints, std::vector<std::string>{"track add Keys"});
}

TEST(OpContract, SynonymsAndCloseKeysRespectTheForm) {
  const auto registry = make_registry();
  auto rename = check(registry, "track rename Keys name:Piano");
  ASSERT_FALSE(rename.ok);
  EXPECT_EQ(rename.error.hints, std::vector<std::string>{"track rename Keys to:Piano"});
  auto add = check(registry, "track add Keys name:Piano");  // to: belongs to rename only
  ASSERT_FALSE(add.ok);
  EXPECT_EQ(add.error.hints, std::vector<std::string>{"track add Keys"});
  auto typo = check(registry, "track add Keys instrumnet:organ");
  ASSERT_FALSE(typo.ok);
  EXPECT_EQ(typo.error.hints, std::vector<std::string>{"track add Keys instrument:organ"});
}

TEST(OpContract, KeysApartAreRefusedWithTheOpWithoutTheOneDeclaredApart) {
  const auto registry = make_registry();
  EXPECT_TRUE(check(registry, "stamp A at:2.1").ok);
  EXPECT_TRUE(check(registry, "stamp A over:1-4").ok);
  auto checked = check(registry, "stamp A at:2.1 over:1-4");
  ASSERT_FALSE(checked.ok);
  EXPECT_EQ(checked.error.message,
            "at: and over: do not go together in stamp (stamp REF [at:POS] [over:RANGE])");
  EXPECT_EQ(checked.error.hints, std::vector<std::string>{"stamp A over:1-4"});
}

TEST(OpContract, RequiredKeyIsRequired) {
  const auto registry = make_registry();
  auto checked = check(registry, "resize Auth");
  ASSERT_FALSE(checked.ok);
  EXPECT_EQ(checked.error.message, "resize needs to:WxH (resize REF to:WxH)");
  // The fix is the op as written with the key, its value from the verb's example.
  ASSERT_EQ(checked.error.hints.size(), 1u);
  EXPECT_EQ(checked.error.hints[0], "resize Auth to:160x80");
  EXPECT_TRUE(check(registry, "resize Auth to:100x50").ok);
}

TEST(OpContract, ValueKindsAreChecked) {
  const auto registry = make_registry();
  auto count = check(registry, "add svc A count:many");
  ASSERT_FALSE(count.ok);
  EXPECT_EQ(count.error.message, "count:many: count takes a whole number ([count:N])");
  auto strict = check(registry, "add svc A strict:maybe");
  ASSERT_FALSE(strict.ok);
  EXPECT_EQ(strict.error.hints, std::vector<std::string>{"add svc A strict:true"});
  auto dir = check(registry, "add svc A near:B dir:belwo");
  ASSERT_FALSE(dir.ok);
  EXPECT_EQ(dir.error.message, "dir:belwo: add dir: takes below|above|left|right");
  ASSERT_FALSE(dir.error.hints.empty());
  EXPECT_EQ(dir.error.hints[0], "add svc A near:B dir:below");
}

TEST(OpContract, RangesAreCheckedAndTheFixIsTheNearestValueTaken) {
  const auto registry = make_registry();
  EXPECT_TRUE(check(registry, "fade A steps:16 gain:-60").ok);
  EXPECT_TRUE(check(registry, "fade A steps:+1 gain:0.5").ok);
  auto steps = check(registry, "fade A steps:17");
  ASSERT_FALSE(steps.ok);
  EXPECT_EQ(steps.error.message, "steps:17: fade steps: takes 1..16");
  EXPECT_EQ(steps.error.hints, std::vector<std::string>{"fade A steps:16"});
  auto gain = check(registry, "fade A gain:-80.5");
  ASSERT_FALSE(gain.ok);
  EXPECT_EQ(gain.error.hints, std::vector<std::string>{"fade A gain:-60"});
  // The card shows the range in place of N.
  EXPECT_EQ(registry.find("fade")->keys[0].card_text(), "[steps:1..16]");
}

TEST(ParsedOpNumbers, IntegerAndNumberValuesOfKeys) {
  auto op = parse_op("fade A steps:+3 gain:-1.5 name:x");
  ASSERT_TRUE(op);
  EXPECT_EQ(op->integer("steps"), 3);
  EXPECT_EQ(op->number("gain"), -1.5);
  EXPECT_EQ(op->integer("gain"), std::nullopt);
  EXPECT_EQ(op->integer("name"), std::nullopt);
  EXPECT_EQ(op->integer("missing"), std::nullopt);
  EXPECT_EQ(to_integer("99999999999999999999"), std::nullopt);
  EXPECT_EQ(to_number("inf"), std::nullopt);
  EXPECT_EQ(to_number(""), std::nullopt);
}

TEST(OpContract, OpenKeysAreAcceptedByTheirTest) {
  const auto registry = make_registry();
  EXPECT_TRUE(check(registry, "modify A fillColor:#fff").ok);
  auto checked = check(registry, "modify A colour:red");
  ASSERT_FALSE(checked.ok);
  EXPECT_EQ(checked.error.message, "modify has no key \"colour:\"; its keys: any style key");
}

TEST(OpContract, GluedArrowsAreSpacedForVerbsThatTakeArrows) {
  const auto registry = make_registry();
  const VerbSpec& connect = *registry.find("connect");
  EXPECT_EQ(space_glued_arrows("connect Orders->OrdersDB", connect), "connect Orders -> OrdersDB");
  EXPECT_EQ(space_glued_arrows("connect A<->B--C", connect), "connect A <-> B -- C");
  EXPECT_EQ(space_glued_arrows("connect A-> B", connect), "connect A -> B");
  EXPECT_EQ(space_glued_arrows("connect db:Users->svc:Auth", connect),
            "connect db:Users -> svc:Auth");
  // Spaced arrows, quoted text and the verb's own keys are left alone.
  EXPECT_EQ(space_glued_arrows("connect A -> B", connect), std::nullopt);
  EXPECT_EQ(space_glued_arrows("connect \"A->B\" -> C", connect), std::nullopt);
  EXPECT_EQ(space_glued_arrows("connect A -> B label:a->b", connect), std::nullopt);
  EXPECT_EQ(space_glued_arrows("add svc A->B", *registry.find("add")), std::nullopt);
}

TEST(OpContract, UnknownVerbSuggestsTheSynonymFirst) {
  const auto registry = make_registry();
  auto op = parse_op("rename Orders \"Order Service\"");
  ASSERT_TRUE(op);
  auto error = unknown_verb_error(registry, *op, "drawio");
  EXPECT_EQ(error.hints, std::vector<std::string>{"label Orders \"Order Service\""});
  op = parse_op("delete Orders");
  ASSERT_TRUE(op);
  EXPECT_EQ(unknown_verb_error(registry, *op, "drawio").hints,
            std::vector<std::string>{"remove Orders"});
}

TEST(OpContract, WordsThatOnlyLookDestructiveAreNotTakenForIt) {
  VerbRegistry registry;
  registry.add(VerbSpec{"remove", "REF", "shapes", "delete"}.deletes());
  registry.add(VerbSpec{"stamp", "REF", "any", "mark"}
                   .with(key("at", "POS").places("1.1").apart_from({"over"}))
                   .with(key("over", "RANGE")));
  registry.add(VerbSpec{"label", "REF TEXT", "shapes", "rename"});
  auto op = parse_op("rename Orders Billing");
  ASSERT_TRUE(op);
  for (const auto& hint : unknown_verb_error(registry, *op, "drawio").hints)
    EXPECT_FALSE(hint.starts_with("remove")) << hint;
  op = parse_op("remvoe Orders");  // a typo of the destructive verb itself still finds it
  ASSERT_TRUE(op);
  EXPECT_EQ(unknown_verb_error(registry, *op, "drawio").hints,
            std::vector<std::string>{"remove Orders"});
}

TEST(OpContract, ReplaceParamToken) {
  EXPECT_EQ(replace_param_token("add A x:1 y:2", "x", ""), "add A y:2");
  EXPECT_EQ(replace_param_token("add A y:2 x:1", "x", ""), "add A y:2");
  EXPECT_EQ(replace_param_token("add A x:\"a b\" y:2", "x", "z:\"a b\""), "add A z:\"a b\" y:2");
  EXPECT_EQ(replace_param_token("add \"x:1\" x:2", "x", "w:2"), "add \"x:1\" w:2");
  EXPECT_EQ(param_token_value("add A label:\"a b\"", "label"), "\"a b\"");
}

// ---- through the engine, with the test domain -------------------------------------------------

class ContractSession : public ::testing::Test {
 protected:
  ContractSession() : domain_(testing::make_deck_domain()), session_(*domain_, paths_) {
    session_.run_session("new \"Deck\"", {});
  }
  ToolReply ops(std::vector<std::string> list) { return session_.run_ops(list, {}).reply; }

  testing::AllowAll paths_;
  std::unique_ptr<Domain> domain_;
  Session session_;
};

TEST_F(ContractSession, EveryVerbRefusesAnUndeclaredKeyWithAPasteableTry) {
  testing::expect_every_verb_refuses_undeclared_keys(*domain_, session_);
}

TEST_F(ContractSession, RefusedKeyFailsTheWholeBatch) {
  auto reply = ops({"add A", "add B shade:red"});
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("try: add B color:red"), std::string::npos) << reply.text;
  EXPECT_NE(reply.text.find("! nothing was applied: 1 op of 2 do not fit their verbs"),
            std::string::npos)
      << reply.text;
  EXPECT_EQ(session_.run_query("stats").text, "cards:0");
}

TEST_F(ContractSession, EveryOpThatDoesNotFitIsReportedAtOnceAndNothingRuns) {
  auto reply = ops({"add A", "delete A", "add B shade:red", "add C", "link A->"});
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("! op 2 of 5 failed: delete A\n! unknown verb \"delete\"\n  try: "
                            "remove A"),
            std::string::npos)
      << reply.text;
  EXPECT_NE(reply.text.find("! op 3 of 5 failed: add B shade:red"), std::string::npos);
  EXPECT_NE(reply.text.find("  try: add B color:red"), std::string::npos);
  EXPECT_NE(reply.text.find("! nothing was applied: 2 ops of 5 do not fit their verbs"),
            std::string::npos);
  EXPECT_EQ(session_.run_query("stats").text, "cards:0");  // `add A` never ran
}

TEST_F(ContractSession, AliasReachesTheHandlerAsTheKey) {
  ops({"add A"});
  auto reply = ops({"set A colour:red"});
  EXPECT_FALSE(reply.is_error) << reply.text;
  EXPECT_NE(session_.run_query("map").text.find("A red"), std::string::npos);
}

TEST_F(ContractSession, GluedArrowsWork) {
  ops({"add A", "add B"});
  auto reply = ops({"link A->B"});
  EXPECT_FALSE(reply.is_error) << reply.text;
}

TEST_F(ContractSession, CheckpointIsAnEngineVerbWithOneReplyFormat) {
  auto reply = ops({"add A", "checkpoint v1", "add B"});
  ASSERT_FALSE(reply.is_error) << reply.text;
  EXPECT_NE(reply.text.find("+ checkpoint \"v1\" after 1 op"), std::string::npos) << reply.text;
  auto session_reply = session_.run_session("checkpoint v2", {}).reply;
  EXPECT_NE(session_reply.text.find("+ checkpoint \"v2\" after 2 ops"), std::string::npos);
  EXPECT_TRUE(ops({"checkpoint"}).is_error);
  EXPECT_TRUE(ops({"checkpoint a b"}).is_error);
  EXPECT_NE(session_.help().find("checkpoint NAME"), std::string::npos);
}

TEST_F(ContractSession, QueryWordsRefuseUndeclaredKeys) {
  auto reply = session_.run_query("history count:3");
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("! history has no key \"count:\""), std::string::npos) << reply.text;
  EXPECT_NE(reply.text.find("  try: history"), std::string::npos) << reply.text;
  ops({"add A", "checkpoint v1"});
  EXPECT_FALSE(session_.run_query("diff checkpoint:v1").is_error);
  EXPECT_FALSE(session_.run_query("diff v1").is_error);
}

TEST_F(ContractSession, UnknownQueryWordsAreFixedInTheQueryAsWritten) {
  ops({"add A"});
  auto synonym = session_.run_query("cards @recent");
  EXPECT_TRUE(synonym.is_error);
  EXPECT_NE(synonym.text.find("! unknown query \"cards\"; queries: map, list,"), std::string::npos)
      << synonym.text;
  EXPECT_NE(synonym.text.find("\n  try: list @recent"), std::string::npos) << synonym.text;
  auto typo = session_.run_query("descrbe A");
  EXPECT_NE(typo.text.find("\n  try: describe A"), std::string::npos) << typo.text;
  EXPECT_FALSE(session_.run_query("describe A").is_error);
  auto unrelated = session_.run_query("zzzzzz A");
  EXPECT_EQ(unrelated.text.find("try:"), std::string::npos) << unrelated.text;
}

TEST_F(ContractSession, SessionCommandsRefuseUndeclaredKeys) {
  auto reply = session_.run_session("save as:out.deck format:text", {}).reply;
  EXPECT_TRUE(reply.is_error);
  EXPECT_NE(reply.text.find("! save has no key \"format:\"; its keys: as:"), std::string::npos)
      << reply.text;
  EXPECT_NE(reply.text.find("  try: save as:out.deck"), std::string::npos) << reply.text;
  auto undo = session_.run_session("undo until:v1", {}).reply;
  EXPECT_NE(undo.text.find("  try: undo to:v1"), std::string::npos) << undo.text;
}

TEST_F(ContractSession, CardListsExactlyTheDeclaredKeys) {
  testing::expect_card_lists_declared_keys(*domain_, session_);
  EXPECT_NE(session_.help().find("add NAME [color:C] [count:N]"), std::string::npos);
}

}  // namespace
}  // namespace fcp::core
