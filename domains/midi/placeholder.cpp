// Placeholder.
namespace fcp::midi {}
