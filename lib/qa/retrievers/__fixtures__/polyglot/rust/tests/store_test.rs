use shop::app::api::handle_create;
use shop::core::store::{Record, Store};
use shop::core::util::format_key;

#[test]
fn save_normalizes_key() {
    let mut store = Store::default();
    assert_eq!(store.save(Record { name: " A ".into() }), format_key("a"));
    assert_eq!(handle_create(&mut store, Record { name: "b".into() }), "b");
}
