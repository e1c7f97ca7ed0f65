// Keeps kta_lang non-empty until the front end lands.
namespace kta::lang {
int placeholder_symbol = 0;
}
