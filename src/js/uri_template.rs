//! `UriTemplate`: RFC 6570 expansion and matching, for resource templates.

use super::error::to_js_error;
use crate::error::Error;
use crate::protocol::uri_template::{TemplateValue, UriTemplate, DEFAULT_MATCH_STEPS};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// An RFC 6570 URI template (levels 1 to 4), such as a resource template's
/// `uriTemplate`.
///
/// @example
/// ```ts
/// const template = new UriTemplate("demo://resource/dynamic/text/{resourceId}");
/// template.expand({ resourceId: 7 }); // "demo://resource/dynamic/text/7"
/// template.match("demo://resource/dynamic/text/7"); // { resourceId: "7" }
/// ```
#[wasm_bindgen(js_name = UriTemplate)]
#[derive(Debug)]
pub struct JsUriTemplate {
    template: UriTemplate,
}

fn scalar(value: &JsValue) -> Option<String> {
    value
        .as_string()
        .or_else(|| value.as_f64().map(crate::protocol::schema::format_number))
        .or_else(|| value.as_bool().map(|b| b.to_string()))
}

fn template_value(name: &str, value: &JsValue) -> Result<Option<TemplateValue>, Error> {
    let invalid = || Error::invalid_argument(format!("variable {name:?} must be a string, number, boolean, array or plain object"));
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    if let Some(text) = scalar(value) {
        return Ok(Some(TemplateValue::String(text)));
    }
    if Array::is_array(value) {
        let items = Array::from(value).iter().map(|item| scalar(&item).ok_or_else(invalid)).collect::<Result<_, _>>()?;
        return Ok(Some(TemplateValue::List(items)));
    }
    if value.is_object() {
        let pairs = Object::entries(value.unchecked_ref())
            .iter()
            .map(|entry| {
                let entry = Array::from(&entry);
                Ok((entry.get(0).as_string().ok_or_else(invalid)?, scalar(&entry.get(1)).ok_or_else(invalid)?))
            })
            .collect::<Result<_, Error>>()?;
        return Ok(Some(TemplateValue::Map(pairs)));
    }
    Err(invalid())
}

#[wasm_bindgen(js_class = UriTemplate)]
impl JsUriTemplate {
    /// Parses `template`.
    ///
    /// @throws {McpClientError} `invalid-argument` if it is not a valid RFC 6570 template.
    #[wasm_bindgen(constructor)]
    pub fn new(template: &str) -> Result<JsUriTemplate, JsValue> {
        UriTemplate::parse(template).map(|template| Self { template }).map_err(|e| to_js_error(&Error::invalid_argument(e.to_string())))
    }

    /// The template text.
    #[wasm_bindgen(getter)]
    pub fn template(&self) -> String {
        self.template.as_str().to_owned()
    }

    /// The names of the template's variables, in order.
    #[wasm_bindgen(getter, js_name = variableNames)]
    pub fn variable_names(&self) -> Vec<String> {
        self.template.variable_names().into_iter().map(str::to_owned).collect()
    }

    /// Expands the template. Missing, `null` and `undefined` variables are
    /// left out, as RFC 6570 specifies.
    ///
    /// @throws {McpClientError} `invalid-argument` for a value that is not a
    /// string, number, boolean, array or plain object.
    pub fn expand(&self, #[wasm_bindgen(unchecked_param_type = "UriTemplateVariables")] variables: JsValue) -> Result<String, JsValue> {
        let mut values = std::collections::HashMap::new();
        for name in self.template.variable_names() {
            let value = if variables.is_object() {
                Reflect::get(&variables, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
            } else {
                JsValue::UNDEFINED
            };
            if let Some(value) = template_value(name, &value).map_err(|e| to_js_error(&e))? {
                values.insert(name.to_owned(), value);
            }
        }
        Ok(self.template.expand(&|name| values.get(name).cloned()))
    }

    /// The variables that expand to `uri`, or `null` if it does not match.
    /// A template from a server could be built to backtrack: matching stops
    /// after `options.maxSteps` steps (default 100000, far above what real
    /// templates need).
    ///
    /// @throws {McpClientError} `limit-exceeded` when matching would take more steps.
    #[wasm_bindgen(js_name = match, unchecked_return_type = "Record<string, string | string[]> | null")]
    pub fn match_uri(
        &self,
        uri: &str,
        #[wasm_bindgen(unchecked_optional_param_type = "{ maxSteps?: number }")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let steps = match Reflect::get(&options, &"maxSteps".into()).ok().filter(|v| !v.is_undefined()) {
            None => DEFAULT_MATCH_STEPS,
            Some(v) => match v.as_f64() {
                Some(n) if (1.0..=1e12).contains(&n) && n.fract() == 0.0 => n as u64,
                _ => return Err(to_js_error(&Error::invalid_argument("maxSteps must be a positive integer".into()))),
            },
        };
        let outcome = self.template.matches(uri, steps).map_err(|too_costly| {
            to_js_error(&Error::LimitExceeded { limit: "templateSteps", message: format!("{too_costly} against {uri:?}") })
        })?;
        let Some(bindings) = outcome else { return Ok(JsValue::NULL) };
        let object = Object::new();
        for (name, value) in bindings {
            let value: JsValue = match value {
                TemplateValue::String(text) => text.into(),
                TemplateValue::List(items) => items.into_iter().map(JsValue::from).collect::<Array>().into(),
                TemplateValue::Map(pairs) => {
                    let map = Object::new();
                    for (k, v) in pairs {
                        let _ = Reflect::set(&map, &k.into(), &v.into());
                    }
                    map.into()
                }
            };
            let _ = Reflect::set(&object, &name.into(), &value);
        }
        Ok(object.into())
    }
}
