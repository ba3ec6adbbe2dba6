//! Feeds arbitrary bytes to `collide`'s two JSON readers, `query` and `pairs` (the latter
//! through every broad phase): nothing may panic; a readable query document answers every
//! query; every broad phase reports the same pairs as brute force.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(out) = cd_cli::query::run(&text, std::path::Path::new("/nonexistent")) {
        let doc: serde_json::Value = serde_json::from_str(&text).expect("run accepted it, so it is JSON");
        let asked = doc["queries"].as_array().map_or(0, Vec::len);
        assert_eq!(out["results"].as_array().map(Vec::len), Some(asked));
    }
    if let Ok(frames) = cd_cli::pairs::parse(&text) {
        let mut reference = None;
        for name in cd_cli::strategy::NAMES {
            let mut broad = cd_cli::strategy::by_name(name).expect("a known name");
            let got = cd_cli::pairs::run(&frames, broad.as_mut()).ok();
            match &reference {
                None => reference = Some(got),
                Some(r) => assert_eq!(r, &got, "{name} differs from brute force"),
            }
        }
    }
});
