// Keeps kta_engine non-empty until the engine lands.
namespace kta::engine {
int placeholder_symbol = 0;
}
