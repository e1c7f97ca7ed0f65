// Keeps kta_analyzers non-empty until the analyzer lands.
namespace kta::analyzers {
int placeholder_symbol = 0;
}
