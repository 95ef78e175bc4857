#include "core/resolve.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fcp::core {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;

TEST(Resolve, ToLowerIsAsciiOnly) {
  EXPECT_EQ(to_lower("Auth-SERVICE 42"), "auth-service 42");
  EXPECT_EQ(to_lower("\xC3\x89t\xC3\xA9"), "\xC3\x89t\xC3\xA9");
  EXPECT_EQ(to_lower(""), "");
}

TEST(Resolve, NormalizeDropsCaseDashesUnderscoresAndWhitespace) {
  EXPECT_EQ(normalize_ref("Auth-Service"), "authservice");
  EXPECT_EQ(normalize_ref("auth service"), "authservice");
  EXPECT_EQ(normalize_ref(" AUTH_\tser-vice\r\n"), "authservice");
  EXPECT_EQ(normalize_ref("--__"), "");
  EXPECT_EQ(normalize_ref("v1.2"), "v1.2");
}

TEST(Resolve, EditDistance) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("sitting", "kitten"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("same", "same"), 0u);
  EXPECT_EQ(edit_distance("flaw", "lawn"), 2u);
  EXPECT_EQ(edit_distance("Undo", "undo"), 1u);  // bytes, case-sensitive
  EXPECT_EQ(edit_distance(std::string(300, 'a'), std::string(200, 'a') + std::string(100, 'b')),
            100u);
}

TEST(Resolve, ClosestMatchesBestFirstWithinTheThreshold) {
  const std::vector<std::string> verbs{"add", "remove", "connect", "modify", "move", "label"};
  EXPECT_THAT(closest_matches("mvoe", verbs), ElementsAre("move"));
  EXPECT_THAT(closest_matches("ad", verbs), ElementsAre("add"));
  EXPECT_THAT(closest_matches("REMOVE", verbs), ElementsAre("remove", "move"));
  EXPECT_THAT(closest_matches("conect", verbs), ElementsAre("connect"));
  EXPECT_THAT(closest_matches("zzzzzzzz", verbs), IsEmpty());
}

TEST(Resolve, ClosestMatchesIncludesCandidatesContainingTheWord) {
  const std::vector<std::string> names{"AuthenticationService", "Database", "Cache"};
  EXPECT_THAT(closest_matches("auth", names), ElementsAre("AuthenticationService"));
  EXPECT_THAT(closest_matches("", names), IsEmpty());
}

TEST(Resolve, ClosestMatchesRespectsTheLimitAndDeduplicates) {
  const std::vector<std::string> names{"ab", "ac", "ad", "ae", "ab"};
  EXPECT_THAT(closest_matches("aa", names, 2), ElementsAre("ab", "ac"));
  EXPECT_THAT(closest_matches("aa", names, 10), ElementsAre("ab", "ac", "ad", "ae"));
  EXPECT_THAT(closest_matches("aa", names, 0), IsEmpty());
}

class NameIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    index_.add("Auth", 1);
    index_.add("auth", 2);
    index_.add("Auth-Service", 3);
    index_.add("Database", 4);
    index_.add("Data Lake", 5);
  }
  NameIndex<int> index_;
};

ReferenceErrors shape_in(std::string_view written) {
  return {"shape", written};
}

TEST_F(NameIndexTest, ExactWinsOverCaseInsensitive) {
  auto found = index_.lookup("auth");
  EXPECT_EQ(found.level, MatchLevel::exact);
  EXPECT_THAT(found.ids, ElementsAre(2));
  EXPECT_EQ(index_.resolve("Auth", shape_in("describe Auth")).value(), 1);
}

TEST_F(NameIndexTest, CaseInsensitiveLevel) {
  auto found = index_.lookup("DATABASE");
  EXPECT_EQ(found.level, MatchLevel::case_insensitive);
  EXPECT_THAT(found.ids, ElementsAre(4));
}

TEST_F(NameIndexTest, CaseInsensitiveAmbiguity) {
  auto found = index_.lookup("AUTH");
  EXPECT_EQ(found.level, MatchLevel::case_insensitive);
  EXPECT_THAT(found.ids, UnorderedElementsAre(1, 2));
  auto resolved = index_.resolve("AUTH", shape_in("describe AUTH"));
  ASSERT_FALSE(resolved);
  EXPECT_EQ(resolved.error().message, "\"AUTH\" matches 2 shapes: Auth, auth");
  EXPECT_THAT(resolved.error().hints, ElementsAre("describe Auth", "describe auth"));
}

TEST_F(NameIndexTest, NormalizedLevel) {
  auto found = index_.lookup("auth_service");
  EXPECT_EQ(found.level, MatchLevel::normalized);
  EXPECT_THAT(found.ids, ElementsAre(3));
  EXPECT_EQ(index_.resolve("AUTH SERVICE", shape_in("describe AUTH SERVICE")).value(), 3);
  EXPECT_EQ(index_.resolve("data-lake", shape_in("describe data-lake")).value(), 5);
}

TEST_F(NameIndexTest, UniquePrefixLevel) {
  auto found = index_.lookup("datab");
  EXPECT_EQ(found.level, MatchLevel::prefix);
  EXPECT_THAT(found.ids, ElementsAre(4));
  EXPECT_EQ(index_.resolve("auth-serv", shape_in("describe auth-serv")).value(), 3);
}

TEST_F(NameIndexTest, AmbiguousPrefix) {
  auto found = index_.lookup("Dat");
  EXPECT_EQ(found.level, MatchLevel::prefix);
  EXPECT_THAT(found.ids, UnorderedElementsAre(4, 5));
  auto resolved = index_.resolve("Dat", shape_in("describe Dat"));
  ASSERT_FALSE(resolved);
  EXPECT_EQ(resolved.error().message, "\"Dat\" matches 2 shapes: Data Lake, Database");
  EXPECT_THAT(resolved.error().hints, ElementsAre("describe \"Data Lake\"", "describe Database"));
}

TEST_F(NameIndexTest, NotFoundSuggestsTheClosest) {
  auto found = index_.lookup("Databse");
  EXPECT_EQ(found.level, MatchLevel::none);
  EXPECT_THAT(found.ids, IsEmpty());
  auto resolved = index_.resolve("Databse", shape_in("describe Databse"));
  ASSERT_FALSE(resolved);
  EXPECT_EQ(
      resolved.error().message,
      "unknown shape \"Databse\" (shapes: Auth, Auth-Service, \"Data Lake\", Database, auth)");
  ASSERT_FALSE(resolved.error().hints.empty());
  EXPECT_EQ(resolved.error().hints.front(), "describe Database");
  EXPECT_EQ(index_.lookup("").level, MatchLevel::none);
  EXPECT_EQ(index_.lookup("--").level, MatchLevel::none);
}

TEST_F(NameIndexTest, RemovalUpdatesEveryLevel) {
  index_.remove("Database", 4);
  EXPECT_EQ(index_.lookup("Database").level, MatchLevel::none);
  EXPECT_THAT(index_.lookup("Database").ids, IsEmpty());
  EXPECT_EQ(index_.resolve("dat", shape_in("describe dat")).value(),
            5);  // the prefix is unique now
  index_.remove("auth", 2);
  EXPECT_EQ(index_.lookup("auth").level, MatchLevel::case_insensitive);
  EXPECT_EQ(index_.resolve("AUTH", shape_in("describe AUTH")).value(), 1);
  index_.remove("Nope", 9);    // unknown: no effect
  index_.remove("Auth", 999);  // known name, other id: no effect
  EXPECT_EQ(index_.resolve("Auth", shape_in("describe Auth")).value(), 1);
  EXPECT_THAT(index_.names(), ElementsAre("Auth", "Auth-Service", "Data Lake"));
}

TEST(NameIndex, SameNameTwoIdsIsAmbiguousAtExactLevel) {
  NameIndex<std::string> index;
  index.add("Piano", "t1");
  index.add("Piano", "t2");
  auto found = index.lookup("Piano");
  EXPECT_EQ(found.level, MatchLevel::exact);
  EXPECT_THAT(found.ids, ElementsAre("t1", "t2"));
  EXPECT_FALSE(index.resolve("Piano", ReferenceErrors{"track", "mute Piano"}));
  index.remove("Piano", "t1");
  EXPECT_EQ(index.resolve("Piano", ReferenceErrors{"track", "mute Piano"}).value(), "t2");
}

// A name's first id is held in its entry and the others beside it: removing any of them keeps
// the rest in the order they were added, at every level (exact, case, normalized, prefix), and
// the name goes once it holds no id.
TEST(NameIndex, RemovingAnyIdKeepsTheOthersInOrder) {
  NameIndex<std::string> index;
  for (const char* id : {"a", "b", "c", "d"})
    index.add("Db Main", id);
  index.add("Db Main", "b");  // the same id twice: removed one at a time
  index.remove("Db Main", "a");
  EXPECT_THAT(index.lookup("Db Main").ids, ElementsAre("b", "c", "d", "b"));
  index.remove("Db Main", "c");
  EXPECT_THAT(index.lookup("db main").ids, ElementsAre("b", "d", "b"));
  EXPECT_EQ(index.lookup("db main").level, MatchLevel::case_insensitive);
  index.remove("Db Main", "b");
  EXPECT_THAT(index.lookup("DB_MAIN").ids, ElementsAre("d", "b"));
  EXPECT_EQ(index.lookup("DB_MAIN").level, MatchLevel::normalized);
  index.add("Db Mainframe", "m");
  EXPECT_THAT(index.lookup("dbmai").ids, ElementsAre("d", "b", "m"));
  EXPECT_EQ(index.lookup("dbmai").level, MatchLevel::prefix);
  index.remove("Db Main", "d");
  index.remove("Db Main", "b");
  EXPECT_THAT(index.names(), ElementsAre("Db Mainframe"));
  EXPECT_EQ(index.lookup("Db Main").level, MatchLevel::prefix);
  EXPECT_THAT(index.lookup("Db Main").ids, ElementsAre("m"));
  // Ambiguity names each name holding one of the ids, whichever place the id has in it.
  index.add("Cache", "x");
  index.add("Cache", "y");
  index.add("cache", "z");
  auto both = index.resolve("CACHE", ReferenceErrors{"shape", "describe CACHE"});
  ASSERT_FALSE(both);
  EXPECT_THAT(both.error().message, HasSubstr("Cache"));
  EXPECT_THAT(both.error().message, HasSubstr("cache"));
}

TEST(NameIndex, EmptyAndClear) {
  NameIndex<int> index;
  EXPECT_TRUE(index.empty());
  auto missing = index.resolve("x", ReferenceErrors{"track", "mute x", {}, {"track add x"}});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "unknown track \"x\": there are no tracks yet");
  EXPECT_THAT(missing.error().hints, ElementsAre("track add x"));
  index.add("x", 1);
  EXPECT_FALSE(index.empty());
  index.clear();
  EXPECT_TRUE(index.empty());
  EXPECT_THAT(index.names(), IsEmpty());
}

TEST(NameIndex, ManyNames) {
  NameIndex<int> index;
  for (int i = 0; i < 10000; ++i)
    index.add("shape-" + std::to_string(i), i);
  EXPECT_EQ(index.resolve("SHAPE_4321", shape_in("describe SHAPE_4321")).value(), 4321);
  EXPECT_EQ(index.resolve("shape-9999", shape_in("describe shape-9999")).value(), 9999);
  EXPECT_EQ(index.lookup("shape-999").level, MatchLevel::exact);
  EXPECT_EQ(index.lookup("shape99").level, MatchLevel::normalized);
  EXPECT_THAT(index.lookup("shape 12").ids, ElementsAre(12));  // normalized beats prefix
  EXPECT_EQ(index.lookup("shape-1234").ids.size(), 1u);
  EXPECT_EQ(index.lookup("shape123").level, MatchLevel::normalized);
}

TEST(ReplaceReference, QuotedFirstThenAWholeTokenOrAKeysValue) {
  EXPECT_EQ(replace_reference("connect \"Auth Svc\" -> Db", "Auth Svc", "Auth"),
            "connect Auth -> Db");
  EXPECT_EQ(replace_reference("connect Authx -> Auth", "Auth", "Login"), "connect Authx -> Login");
  EXPECT_EQ(replace_reference("note Kys C4 track:Kys", "Kys", "Keys"), "note Keys C4 track:Kys");
  EXPECT_EQ(replace_reference("list @group:Bakend", "Bakend", "Backend"), "list @group:Backend");
  EXPECT_EQ(replace_reference("describe Auth", "Nope", "Auth"), "");
}

TEST(UnknownReference, ListsAtMostTwelveNamesAndQuotesThemAsTokens) {
  std::vector<std::string> names;
  for (int i = 0; i < 14; ++i)
    names.push_back("Shape " + std::to_string(i));
  auto error = unknown_reference({"shape", "remove Shape 99"}, "Shape 99", names);
  EXPECT_EQ(error.message,
            "unknown shape \"Shape 99\" (shapes: \"Shape 0\", \"Shape 1\", \"Shape 2\", "
            "\"Shape 3\", \"Shape 4\", \"Shape 5\", \"Shape 6\", \"Shape 7\", \"Shape 8\", "
            "\"Shape 9\", \"Shape 10\", \"Shape 11\", … 2 more)");
  EXPECT_THAT(error.hints,
              ElementsAre("remove \"Shape 9\"", "remove \"Shape 0\"", "remove \"Shape 1\""));
  EXPECT_EQ(unknown_reference({"class", "add x"}, "x", {}).message,
            "unknown class \"x\": there are no classes yet");
}

}  // namespace
}  // namespace fcp::core
