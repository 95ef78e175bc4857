// Placeholder.
namespace fcp::drawio {}
