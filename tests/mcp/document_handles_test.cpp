// Document handles through ClientConnection: new/open answer with a handle, every tool takes
// `doc`, list and close, clear errors, and calls on one document from many connections run one
// at a time.
#include <unistd.h>

#include <filesystem>
#include <future>
#include <regex>

#include "tests/mcp/connection_fixture.hpp"

namespace fcp::mcp {
namespace {

using test_support::ConnectionTest;
using test_support::RecordingResponder;
namespace json = boost::json;

class DocumentHandlesTest : public ConnectionTest {
 protected:
  explicit DocumentHandlesTest(ServerOptions options = {}) : ConnectionTest(std::move(options)) {}

  // `new "Title"` on a fresh connection; returns the handle the reply names.
  std::string create(const std::string& title) {
    auto c = ready();
    const auto text = text_of(call(*c, 2, "deck_session", {{"action", "new \"" + title + "\""}}));
    std::smatch match;
    EXPECT_TRUE(std::regex_search(text, match, std::regex("handle: (doc:de-[0-9a-f]{32})")))
        << text;
    return match.size() > 1 ? match[1].str() : std::string();
  }
  static bool is_error(const json::value& reply) {
    return reply.at("result").at("isError").as_bool();
  }
};

TEST_F(DocumentHandlesTest, EveryToolDeclaresDocWithItsHeaderAnnotation) {
  auto c = ready();
  auto tools = request(*c, 2, "tools/list").at("result").at("tools").as_array();
  ASSERT_EQ(tools.size(), 4u);
  for (const auto& tool : tools) {
    const auto& doc = tool.at("inputSchema").at("properties").at("doc");
    EXPECT_EQ(doc.at("type"), "string") << tool.at("name");
    EXPECT_EQ(doc.at("x-mcp-header"), "Doc") << tool.at("name");
    EXPECT_NE(doc.at("description").as_string().find("doc:de-"), json::string::npos);
  }
  EXPECT_NE(tools[2].at("description").as_string().find("list"), json::string::npos);
  EXPECT_NE(text_of(call(*c, 3, "deck_help", {})).find("optional argument `doc`"),
            std::string::npos);
}

TEST_F(DocumentHandlesTest, AHandleWorksFromEveryNewConnection) {
  const auto handle = create("Board");
  ASSERT_FALSE(handle.empty());
  for (int i = 0; i < 5; ++i) {
    auto c = ready();  // a client that makes a new session per call
    auto added =
        call(*c, 2, "deck",
             {{"ops", json::array{"add C" + std::to_string(i) + " color:red"}}, {"doc", handle}});
    EXPECT_FALSE(is_error(added)) << text_of(added);
  }
  auto c = ready();
  EXPECT_EQ(text_of(call(*c, 2, "deck_query", {{"q", "stats"}, {"doc", handle}})), "cards:5");
  auto undone = call(*c, 3, "deck_session", {{"action", "undo"}, {"doc", handle}});
  EXPECT_NE(text_of(undone).find("undone"), std::string::npos) << text_of(undone);
  EXPECT_NE(text_of(call(*c, 4, "deck_help", {{"doc", handle}})).find("reference card"),
            std::string::npos);
  // Without doc, a new session has no document: the error names the caller's open one and how
  // to reach it, instead of "use new first" (which would start another document).
  auto none = call(*c, 5, "deck_query", {{"q", "stats"}});
  EXPECT_TRUE(is_error(none));
  const auto text = text_of(none);
  EXPECT_NE(text.find("no document in this MCP session; 1 open deck document of yours"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("the latest: " + handle + " \"Board\""), std::string::npos) << text;
  EXPECT_NE(text.find("try: deck_session list"), std::string::npos) << text;
  // The session resource of that session says the same, not "No deck document open.".
  auto read = request(*c, 6, "resources/read", {{"uri", "fcp://deck/session"}});
  const auto resource = std::string(read.at("result").at("contents").at(0).at("text").as_string());
  EXPECT_EQ(resource.rfind("No deck document in this MCP session.\nOpen deck documents of yours, "
                           "latest first:\n  " +
                               handle +
                               " \"Board\" file: (not saved yet), unsaved changes: yes, "
                               "state: [4c 0l], last use ",
                           0),
            0u)
      << resource;
}

TEST_F(DocumentHandlesTest, WithoutDocumentsTheNoDocumentErrorSaysStartOne) {
  auto c = ready();
  const auto text = text_of(call(*c, 2, "deck_query", {{"q", "stats"}}));
  EXPECT_NE(text.find("! no document: use deck_session 'new \"Title\"'"), std::string::npos)
      << text;
}

TEST_F(DocumentHandlesTest, UnknownMalformedAndForeignHandlesAreClearErrors) {
  auto c = ready();
  auto malformed = call(*c, 2, "deck_query", {{"q", "stats"}, {"doc", "board"}});
  EXPECT_TRUE(is_error(malformed));
  EXPECT_EQ(text_of(malformed),
            "! \"board\" is not a document handle; handles look like doc:de-<32 hex digits>, as "
            "new and open answer\n  try: deck_session list");
  const std::string unknown = "doc:de-0123456789abcdef0123456789abcdef";
  EXPECT_EQ(text_of(call(*c, 3, "deck", {{"ops", json::array{"add A"}}, {"doc", unknown}})),
            "! no open deck document has the handle " + unknown +
                " (fcpd keeps documents until they are closed or it restarts)\n"
                "  try: deck_session list");
  auto foreign = call(*c, 4, "deck_query",
                      {{"q", "stats"}, {"doc", "doc:dw-0123456789abcdef0123456789abcdef"}});
  EXPECT_NE(text_of(foreign).find("is not a deck handle"), std::string::npos) << text_of(foreign);
  auto wrong_type = call(*c, 5, "deck_query", {{"q", "stats"}, {"doc", 7}});
  EXPECT_NE(text_of(wrong_type).find("\"doc\" must be a document handle"), std::string::npos);
}

TEST_F(DocumentHandlesTest, ListNamesTheOpenDocuments) {
  const auto first = create("First");
  auto c = ready();
  auto second_reply = call(*c, 2, "deck_session", {{"action", "new Second"}});
  call(*c, 3, "deck", {{"ops", json::array{"add A color:red"}}});
  const auto listed = text_of(call(*c, 4, "deck_session", {{"action", "list"}}));
  EXPECT_NE(listed.find("! 2 open deck documents"), std::string::npos) << listed;
  EXPECT_NE(listed.find("  " + first +
                        " \"First\" file: (not saved yet), unsaved changes: no, last use "),
            std::string::npos)
      << listed;
  EXPECT_TRUE(std::regex_search(
      listed, std::regex("  doc:de-[0-9a-f]{32} \"Second\" file: \\(not saved yet\\), unsaved "
                         "changes: yes, last use [0-9]+ s ago \\(current\\)")))
      << listed;
  EXPECT_TRUE(is_error(call(*c, 5, "deck_session", {{"action", "list all"}})));
}

TEST_F(DocumentHandlesTest, CloseRefusesUnsavedChangesUnlessDiscardAndEndsTheHandle) {
  const auto handle = create("Draft");
  auto c = ready();
  call(*c, 2, "deck", {{"ops", json::array{"add A color:red"}}, {"doc", handle}});
  auto refused = call(*c, 3, "deck_session", {{"action", "close " + handle}});
  EXPECT_TRUE(is_error(refused));
  EXPECT_NE(text_of(refused).find("\"Draft\" has unsaved changes"), std::string::npos)
      << text_of(refused);
  EXPECT_NE(text_of(refused).find("try: close " + handle + " discard:true"), std::string::npos)
      << text_of(refused);
  EXPECT_EQ(text_of(call(*c, 4, "deck_query", {{"q", "stats"}, {"doc", handle}})), "cards:1");
  auto closed = call(*c, 5, "deck_session", {{"action", "close " + handle + " discard:true"}});
  EXPECT_EQ(text_of(closed), "- closed \"Draft\"\n  the handle " + handle + " ended");
  auto gone = call(*c, 6, "deck_query", {{"q", "stats"}, {"doc", handle}});
  EXPECT_EQ(text_of(gone), "! the deck document " + handle +
                               " (\"Draft\") was closed; its handle no longer works\n"
                               "  try: deck_session list");
  EXPECT_EQ(text_of(call(*c, 7, "deck_session", {{"action", "list"}})), "! no open deck documents");
}

TEST_F(DocumentHandlesTest, NewKeepsThePreviousDocumentOpenUnlessDiscard) {
  auto c = ready();
  call(*c, 2, "deck_session", {{"action", "new One"}});
  call(*c, 3, "deck", {{"ops", json::array{"add A color:red"}}});
  const auto kept = text_of(call(*c, 4, "deck_session", {{"action", "new Two"}}));
  EXPECT_TRUE(std::regex_search(
      kept, std::regex("\\? doc:de-[0-9a-f]{32} \"One\" has unsaved changes and stays open")))
      << kept;
  EXPECT_EQ(text_of(call(*c, 5, "deck_query", {{"q", "stats"}})), "cards:0");  // Two is current
  const auto replaced =
      text_of(call(*c, 6, "deck_session", {{"action", "new Three discard:true"}}));
  EXPECT_TRUE(std::regex_search(replaced, std::regex("- closed doc:de-[0-9a-f]{32} \"Two\"\n")))
      << replaced;
  const auto listed = text_of(call(*c, 7, "deck_session", {{"action", "list"}}));
  EXPECT_NE(listed.find("! 2 open deck documents"), std::string::npos) << listed;
  EXPECT_NE(listed.find("\"One\""), std::string::npos);
  EXPECT_NE(listed.find("\"Three\""), std::string::npos);
  EXPECT_EQ(listed.find("\"Two\""), std::string::npos);
}

// The lofi Max link regression: what a client chose before `new` (its empty session) or in the
// document it works on carries over to the document that new/open makes (SessionState::successor).
TEST_F(DocumentHandlesTest, WhatTheClientChoseCarriesOverToItsNextDocuments) {
  auto c = ready();
  EXPECT_EQ(text_of(call(*c, 2, "deck_session", {{"action", "pin blue"}})), "~ pinned blue");
  auto made = text_of(call(*c, 3, "deck_session", {{"action", "new One"}}));
  EXPECT_NE(made.find("\n  pinned: blue\n"), std::string::npos) << made;
  call(*c, 4, "deck_session", {{"action", "pin red"}});
  made = text_of(call(*c, 5, "deck_session", {{"action", "new Two"}}));
  EXPECT_NE(made.find("pinned: red"), std::string::npos) << made;
  const auto file = "fcp-pin-" + std::to_string(::getpid()) + ".deck";
  ASSERT_FALSE(is_error(call(*c, 6, "deck_session", {{"action", "save " + file}})));
  made = text_of(call(*c, 7, "deck_session", {{"action", "open " + file}}));
  std::filesystem::remove(std::filesystem::temp_directory_path() / file);
  EXPECT_NE(made.find("pinned: red"), std::string::npos) << made;
  // Another client chose nothing.
  auto other = ready();
  made = text_of(call(*other, 2, "deck_session", {{"action", "new Three"}}));
  EXPECT_EQ(made.find("pinned"), std::string::npos) << made;
}

TEST_F(DocumentHandlesTest, CallsOnOneDocumentFromTwoConnectionsRunOneAtATime) {
  const auto handle = create("Shared");
  auto slow_client = ready();
  auto quick_client = ready();
  auto slow = std::make_shared<RecordingResponder>();
  json::object slow_call{
      {"jsonrpc", "2.0"},
      {"id", 9},
      {"method", "tools/call"},
      {"params",
       json::object{{"name", "deck"},
                    {"arguments", json::object{{"ops", json::array{"sleep 300", "add A color:red"}},
                                               {"doc", handle}}}}}};
  slow_client->handle(json::serialize(slow_call), slow);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the batch is running
  // The workers have a free thread, but the query waits for the batch: it sees its card.
  EXPECT_EQ(text_of(call(*quick_client, 2, "deck_query", {{"q", "stats"}, {"doc", handle}})),
            "cards:1");
  EXPECT_FALSE(slow->wait().at("result").at("isError").as_bool());
}

ServerOptions two_documents() {
  ServerOptions options;
  options.max_documents = 2;
  return options;
}

class DocumentLimitTest : public DocumentHandlesTest {
 protected:
  DocumentLimitTest() : DocumentHandlesTest(two_documents()) {}
};

TEST_F(DocumentLimitTest, AtTheLimitTheLeastRecentlyUsedSavedDocumentMakesRoom) {
  const auto oldest = create("Oldest");
  const auto edited = create("Edited");
  auto c = ready();
  call(*c, 2, "deck", {{"ops", json::array{"add A color:red"}}, {"doc", edited}});
  const auto third = text_of(call(*c, 3, "deck_session", {{"action", "new Third"}}));
  EXPECT_NE(third.find("- closed " + oldest +
                       " \"Oldest\", the least recently used document without unsaved changes, "
                       "to stay within 2 open documents"),
            std::string::npos)
      << third;
  EXPECT_NE(
      text_of(call(*c, 4, "deck_query", {{"q", "stats"}, {"doc", oldest}})).find("was closed"),
      std::string::npos);
  // Now both open documents have unsaved changes: nothing may be dropped, new is refused.
  call(*c, 5, "deck", {{"ops", json::array{"add B color:red"}}});
  auto refused = call(*c, 6, "deck_session", {{"action", "new Fourth"}});
  EXPECT_TRUE(is_error(refused));
  EXPECT_EQ(text_of(refused),
            "! too many open documents (2, setting limits.max_documents): close one first "
            "(deck_session list names them)\n"
            "  try: deck_session list");
  EXPECT_EQ(text_of(call(*c, 7, "deck_query", {{"q", "stats"}, {"doc", edited}})), "cards:1");
}

}  // namespace
}  // namespace fcp::mcp
