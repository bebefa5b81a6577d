//! The DLTI dialect's attributes, which carry target descriptions
//! (`#dlti.target_system_spec`, `#dlti.dl_entry`, ...). Their bodies are
//! kept as written; only the mnemonic is checked.

use hivm_ir::Dialect;

const MNEMONICS: &[&str] = &["dl_entry", "dl_spec", "map", "target_system_spec", "target_device_spec"];

fn check_attr(body: &str) -> Result<String, String> {
    let mnemonic = body.split('<').next().unwrap_or("");
    if MNEMONICS.contains(&mnemonic) && body.len() > mnemonic.len() && body.ends_with('>') {
        Ok(body.to_string())
    } else {
        Err(format!("unknown attribute `{mnemonic}` in dialect `dlti`"))
    }
}

pub fn dialect() -> Dialect {
    let mut d = Dialect::new("dlti", Vec::new());
    d.check_attr = Some(check_attr);
    d
}
