// The methods both lifecycles serve alike: tools/list, tools/call, resources/list|read,
// resources/templates/list, prompts/list|get. Which revision a request came in is not known here.
#include <algorithm>

#include "mcp/client_connection.hpp"
#include "mcp/conformance_fixtures.hpp"
#include "mcp/document_resources.hpp"
#include "mcp/lifecycle.hpp"
#include "mcp/server.hpp"

namespace fcp::mcp {
namespace json = boost::json;

bool ClientConnection::has_prompts() const {
  return fixtures_ != nullptr ||
         std::any_of(server_.domains().begin(), server_.domains().end(),
                     [](const core::Domain* d) { return !d->prompts().empty(); });
}

json::object ClientConnection::capabilities() const {
  json::object announced = lifecycle::server_capabilities(has_prompts());
  if (fixtures_) ConformanceFixtures::add_capabilities(announced);
  return announced;
}

bool ClientConnection::serve_feature(const jsonrpc::Incoming& message, const Reply& reply) {
  const auto& method = message.method;
  if (method == "tools/list") {
    json::array tools;
    const bool with_output_schema = structured_output();
    for (const auto& tool : server_.tools())
      tools.push_back(describe(tool, with_output_schema));
    reply->result(json::object{{"tools", std::move(tools)}});
    return true;
  }
  if (method == "tools/call") {
    on_tools_call(message, reply);
    return true;
  }
  if (method == "resources/list") {
    // A session that lists resources hears when the list changes.
    if (initialized()) {
      std::lock_guard lock(mutex_);
      server_.subscriptions().hear_list_changes(session_listener_);
    }
    json::array resources;
    for (const auto* domain : server_.domains()) {
      const std::string name(domain->name());
      resources.push_back(
          json::object{{"uri", "fcp://" + name + "/session"},
                       {"name", name + "-session"},
                       {"title", name + " session"},
                       {"description", "The open " + name + " document: file and digest"},
                       {"mimeType", "text/plain"}});
    }
    // The caller's open documents (only its own: the store's owner rule).
    for (const auto* domain : server_.domains()) {
      for (const auto& document : server_.documents().list(session_->principal(), *domain))
        resources.push_back(document_resource(*document));
    }
    if (fixtures_) ConformanceFixtures::add_resources(resources);
    reply->result(json::object{{"resources", std::move(resources)}});
    return true;
  }
  if (method == "resources/templates/list") {
    json::array templates = document_resource_templates(server_.domains());
    if (fixtures_) ConformanceFixtures::add_resource_templates(templates);
    reply->result(json::object{{"resourceTemplates", std::move(templates)}});
    return true;
  }
  if (method == "resources/read") {
    on_resources_read(message.params, reply);
    return true;
  }
  // 2025-era sessions only: the stateless revision replaced them with subscriptions/listen.
  if (initialized() && (method == "resources/subscribe" || method == "resources/unsubscribe")) {
    on_resources_subscribe(message, reply);
    return true;
  }
  // Prompts exist only when a hosted domain (or --conformance-fixtures) offers some; otherwise
  // they are unknown methods.
  if (has_prompts() && method == "prompts/list") {
    json::array prompts;
    for (const auto* domain : server_.domains()) {
      for (const auto& prompt : domain->prompts()) {
        json::array arguments;
        for (const auto& argument : prompt.arguments)
          arguments.push_back(json::object{{"name", argument.name},
                                           {"description", argument.description},
                                           {"required", argument.required}});
        prompts.push_back(json::object{{"name", prompt.name},
                                       {"title", prompt.title},
                                       {"description", prompt.description},
                                       {"arguments", std::move(arguments)}});
      }
    }
    if (fixtures_) ConformanceFixtures::add_prompts(prompts);
    reply->result(json::object{{"prompts", std::move(prompts)}});
    return true;
  }
  if (has_prompts() && method == "prompts/get") {
    on_prompts_get(message.params, reply);
    return true;
  }
  return false;
}

}  // namespace fcp::mcp
