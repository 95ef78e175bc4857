// DocumentStore: handle format, lookups and their errors, list, close, the per-owner limit.
#include "mcp/document_store.hpp"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <regex>
#include <set>

#include "tests/support/test_domain.hpp"

namespace fcp::mcp {
namespace {

class NoFiles final : public core::PathPolicy {
 public:
  core::Result<std::filesystem::path> for_reading(std::string_view) const override {
    return core::make_error("no files here");
  }
  core::Result<std::filesystem::path> for_writing(std::string_view) const override {
    return core::make_error("no files here");
  }
};

class DocumentStoreTest : public ::testing::Test {
 protected:
  std::shared_ptr<StoredDocument> open(const std::string& owner, const std::string& title) {
    auto document = store_.make(*domain_, owner);
    EXPECT_FALSE(document->session().run_session("new \"" + title + "\"", {}).reply.is_error);
    document->refresh(true);
    EXPECT_TRUE(store_.add(document));
    return document;
  }

  boost::asio::io_context io_;
  NoFiles paths_;
  std::unique_ptr<core::Domain> domain_ = fcp::testing::make_deck_domain();
  DocumentStore store_{io_.get_executor(), paths_, {}, 3};
};

TEST_F(DocumentStoreTest, HandlesAreUnguessableAndNameTheirDomain) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    const auto handle = make_document_handle(store_.prefix(*domain_));
    EXPECT_TRUE(std::regex_match(handle, std::regex("doc:de-[0-9a-f]{32}"))) << handle;
    EXPECT_TRUE(looks_like_handle(handle));
    seen.insert(handle);
  }
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_FALSE(looks_like_handle("doc:de-0123"));
  EXPECT_FALSE(looks_like_handle("doc:de-0123456789ABCDEF0123456789abcdef"));
  EXPECT_FALSE(looks_like_handle("dw-0123456789abcdef0123456789abcdef"));
}

TEST_F(DocumentStoreTest, FindsOnlyTheOwnersOpenDocuments) {
  auto mine = open("local", "Mine");
  auto found = store_.find(mine->handle(), "local", *domain_);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->get(), mine.get());
  // Another principal cannot tell the handle from an unknown one.
  auto other = store_.find(mine->handle(), "someone", *domain_);
  ASSERT_FALSE(other);
  EXPECT_NE(other.error().message.find("no open deck document has the handle"), std::string::npos);
  EXPECT_EQ(other.error().hints, std::vector<std::string>{"deck_session list"});
}

TEST_F(DocumentStoreTest, ClosedHandlesSaySoAndQueuedCallsSeeIt) {
  auto doc = open("local", "Gone");
  store_.remove(*doc);
  EXPECT_TRUE(doc->closed());
  auto found = store_.find(doc->handle(), "local", *domain_);
  ASSERT_FALSE(found);
  EXPECT_EQ(found.error().message, "the deck document " + doc->handle() +
                                       " (\"Gone\") was closed; its handle no longer works");
  EXPECT_EQ(found.error().hints, std::vector<std::string>{"deck_session list"});
  EXPECT_TRUE(store_.list("local", *domain_).empty());
}

TEST_F(DocumentStoreTest, ListsTheOwnersDocumentsMostRecentlyUsedFirst) {
  auto a = open("local", "A");
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  auto b = open("local", "B");
  open("someone", "C");
  auto listed = store_.list("local", *domain_);
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].get(), b.get());
  EXPECT_EQ(listed[1].get(), a.get());
  EXPECT_EQ(listed[1]->summary().title, "A");
  EXPECT_FALSE(listed[1]->summary().unsaved);
  EXPECT_EQ(store_.idle_since(b->last_use()).size(), 1u);  // only A was idle before B's use
}

TEST_F(DocumentStoreTest, RefusesMoreThanTheLimitPerOwner) {
  for (int i = 0; i < 3; ++i)
    open("local", "D" + std::to_string(i));
  auto refused = store_.can_add("local", *domain_);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            "too many open documents (3, setting limits.max_documents): close one first "
            "(deck_session list names them)");
  EXPECT_TRUE(store_.can_add("someone", *domain_));
  EXPECT_FALSE(store_.add(store_.make(*domain_, "local")));
}

}  // namespace
}  // namespace fcp::mcp
