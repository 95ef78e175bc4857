#include "core/session_command.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace fcp::core {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Strings = std::map<std::string, std::string>;

SessionCommand parse(std::string_view action, std::span<const std::string> extensions = {}) {
  auto command = parse_session_command(action, extensions);
  EXPECT_TRUE(command.has_value()) << action << ": " << (command ? "" : command.error().message);
  return command ? *command : SessionCommand{};
}

Error error_of(std::string_view action, std::span<const std::string> extensions = {}) {
  auto command = parse_session_command(action, extensions);
  EXPECT_FALSE(command.has_value()) << action;
  return command ? Error{} : command.error();
}

TEST(SessionCommand, BuiltinCommands) {
  std::vector<std::string> names;
  for (std::string_view name : builtin_session_commands())
    names.emplace_back(name);
  EXPECT_THAT(names, ElementsAre("new", "open", "save", "checkpoint", "undo", "redo", "close",
                                 "list", "recover"));
}

TEST(SessionCommand, New) {
  SessionCommand titled = parse(R"(new "My Song" tempo:120 key:C)");
  EXPECT_EQ(titled.command, "new");
  EXPECT_EQ(titled.args, (Strings{{"title", "My Song"}}));
  EXPECT_EQ(titled.params, (Strings{{"tempo", "120"}, {"key", "C"}}));
  EXPECT_FALSE(titled.count.has_value());

  SessionCommand bare = parse("new");
  EXPECT_THAT(bare.args, IsEmpty());
  EXPECT_THAT(bare.params, IsEmpty());

  EXPECT_EQ(parse(R"(NEW "a:b" "Second")").args, (Strings{{"title", "a:b"}}));
  EXPECT_THAT(parse(R"(new "a:b")").params, IsEmpty());
}

TEST(SessionCommand, Open) {
  EXPECT_EQ(parse("open ./d.drawio").args, (Strings{{"path", "./d.drawio"}}));
  EXPECT_EQ(parse(R"(open "/tmp/my file.mid")").args, (Strings{{"path", "/tmp/my file.mid"}}));
  Error missing = error_of("open");
  EXPECT_EQ(missing.message, "open needs a path: open PATH");
  EXPECT_THAT(missing.hints, ElementsAre("open PATH"));
}

TEST(SessionCommand, Save) {
  EXPECT_THAT(parse("save").args, IsEmpty());
  EXPECT_EQ(parse("save out.drawio").args, (Strings{{"path", "out.drawio"}}));
  SessionCommand save_as = parse(R"(save as:"my copy.drawio")");
  EXPECT_THAT(save_as.args, IsEmpty());
  EXPECT_EQ(save_as.params, (Strings{{"as", "my copy.drawio"}}));
  ASSERT_NE(save_as.param("as"), nullptr);
  EXPECT_EQ(*save_as.param("as"), "my copy.drawio");
  EXPECT_EQ(save_as.param("path"), nullptr);
}

TEST(SessionCommand, Checkpoint) {
  SessionCommand named = parse(R"(checkpoint "before refactor")");
  EXPECT_EQ(named.args, (Strings{{"name", "before refactor"}}));
  ASSERT_NE(named.arg("name"), nullptr);
  EXPECT_EQ(*named.arg("name"), "before refactor");
  EXPECT_EQ(named.arg("path"), nullptr);
  EXPECT_EQ(error_of("checkpoint").message, "checkpoint needs a name: checkpoint NAME");
}

TEST(SessionCommand, UndoCount) {
  EXPECT_EQ(parse("undo").count, 1);
  EXPECT_EQ(parse("undo 3").count, 3);
  EXPECT_EQ(parse("  Undo \t 0 ").count, 0);
  EXPECT_EQ(parse("undo 10000").count, 10000);
  EXPECT_THAT(parse("undo 3").args, IsEmpty());
  EXPECT_THAT(parse("undo 3").positionals, ElementsAre("3"));
}

TEST(SessionCommand, UndoToCheckpoint) {
  SessionCommand command = parse("undo to:v1");
  EXPECT_EQ(command.args, (Strings{{"target", "v1"}}));
  EXPECT_EQ(command.params, (Strings{{"to", "v1"}}));
  EXPECT_FALSE(command.count.has_value());
  EXPECT_EQ(parse(R"(undo to:"before refactor")").args, (Strings{{"target", "before refactor"}}));
}

TEST(SessionCommand, BadCountsAreErrors) {
  for (std::string_view action : {"undo abc", "undo -1", "redo 1.5", "redo 2x", "undo +1",
                                  "undo 99999999999999999999", "undo to:"}) {
    Error error = error_of(action);
    EXPECT_THAT(error.message, HasSubstr("count must be a non-negative integer")) << action;
  }
  EXPECT_THAT(error_of("undo x").hints, ElementsAre("undo 1"));
}

TEST(SessionCommand, Redo) {
  EXPECT_EQ(parse("redo").count, 1);
  EXPECT_EQ(parse("redo 2").count, 2);
  EXPECT_EQ(parse("redo 007").count, 7);
}

TEST(SessionCommand, Close) {
  EXPECT_THAT(parse("close").args, IsEmpty());
  EXPECT_EQ(parse("close discard:true").params, (Strings{{"discard", "true"}}));
}

TEST(SessionCommand, UnknownCommandNamesTheKnownOnesAndSuggests) {
  Error typo = error_of("opne x.drawio");
  EXPECT_EQ(typo.message,
            "unknown session command \"opne\"; known commands: new, open, save, checkpoint, "
            "undo, redo, close, list, recover");
  ASSERT_FALSE(typo.hints.empty());
  EXPECT_EQ(typo.hints.front(), "open");
  EXPECT_EQ(error_of("UNDOO").hints.front(), "undo");
  // Nothing is close: no suggestion (an unrelated command would mislead; the message lists all).
  EXPECT_THAT(error_of("frobnicate").hints, IsEmpty());
  EXPECT_THAT(error_of("xyzzy").hints, IsEmpty());
}

TEST(SessionCommand, CloseAndListNameDocumentsByHandle) {
  const std::string handle = "doc:dw-0123456789abcdef0123456789abcdef";
  // Unquoted, the handle reads as the key doc; quoted, it is a positional: both name it.
  EXPECT_EQ(*parse("close " + handle + " discard:true").arg("doc"), handle);
  EXPECT_EQ(*parse("close \"" + handle + "\"").arg("doc"), handle);
  EXPECT_EQ(parse("close").arg("doc"), nullptr);
  EXPECT_EQ(parse("list").command, "list");
}

TEST(SessionCommand, EmptyActionIsAnError) {
  for (std::string_view action : {"", "   ", "\t\n"}) {
    Error error = error_of(action);
    EXPECT_THAT(error.message, HasSubstr("empty session command; known commands: new, open"));
    EXPECT_FALSE(error.hints.empty());
  }
}

TEST(SessionCommand, UnterminatedQuoteIsAnError) {
  EXPECT_EQ(error_of(R"(new "Untitled)").message, "unterminated quote at column 5");
}

TEST(SessionCommand, DomainExtensions) {
  const std::vector<std::string> extensions{"export", "Load-Soundfont"};
  SessionCommand exported = parse(R"(export png "out file.png" scale:2)", extensions);
  EXPECT_EQ(exported.command, "export");
  EXPECT_THAT(exported.positionals, ElementsAre("png", "out file.png"));
  EXPECT_EQ(exported.params, (Strings{{"scale", "2"}}));
  EXPECT_THAT(exported.args, IsEmpty());
  EXPECT_EQ(parse("load-soundfont x.sf2", extensions).command, "load-soundfont");

  Error typo = error_of("exprot png", extensions);
  EXPECT_THAT(typo.message, HasSubstr("known commands: new, open, save, checkpoint, undo, redo, "
                                      "close, list, recover, export, load-soundfont"));
  EXPECT_EQ(typo.hints.front(), "export");
  EXPECT_FALSE(parse_session_command("export png").has_value());  // not without the extension
}

}  // namespace
}  // namespace fcp::core
