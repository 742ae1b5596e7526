//! Form-mode elicitation answers: the client fills in the defaults the server
//! asked for (SEP-1034) and checks the answer against `requestedSchema`
//! before sending it.

use super::jsonrpc::kind;
use super::schema;
#[cfg(feature = "validator")]
use super::schema::{LinearPatterns, SchemaError};
use serde_json::{Map, Value};

/// Why a form answer cannot be sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnswerError {
    /// The answer does not fit the requested schema.
    Refused(String),
    /// The requested schema is too costly to check the answer against.
    TooCostly(String),
}

impl std::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Refused(why) | Self::TooCostly(why) => f.write_str(why),
        }
    }
}

/// Completes an `accept` answer's `content` with every default from
/// `requested_schema` the user left out, then checks each field within `limits`.
///
/// # Errors
/// What is wrong with the answer, naming the field, or that the schema is too
/// costly to check.
pub fn complete_form_answer(
    requested_schema: &Value,
    content: &mut Map<String, Value>,
    limits: &schema::Limits,
) -> Result<(), AnswerError> {
    fill_form_answer(requested_schema, content)?;
    check_answer(requested_schema, content, limits)
}

/// [`complete_form_answer`] without the check against the schema, for a
/// caller whose own validator checks the completed answer: the defaults
/// filled in, and every `required` field present.
///
/// # Errors
/// The first `required` field the answer lacks.
pub fn fill_form_answer(requested_schema: &Value, content: &mut Map<String, Value>) -> Result<(), AnswerError> {
    let properties = requested_schema.get("properties").and_then(Value::as_object);
    if let Some(properties) = properties {
        for (name, property) in properties {
            if let (false, Some(default)) = (content.contains_key(name), property.get("default")) {
                content.insert(name.clone(), default.clone());
            }
        }
    }
    let required = requested_schema.get("required").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    if let Some(missing) = required.iter().filter_map(Value::as_str).find(|name| !content.contains_key(*name)) {
        return Err(AnswerError::Refused(format!("the answer lacks the required field {missing:?}")));
    }
    Ok(())
}

/// Checks a completed answer against the schema it answers, within `limits`.
#[cfg(feature = "validator")]
fn check_answer(requested_schema: &Value, content: &mut Map<String, Value>, limits: &schema::Limits) -> Result<(), AnswerError> {
    let answer = Value::Object(std::mem::take(content));
    let checked = schema::validate_with(requested_schema, &answer, &LinearPatterns::default(), limits);
    if let Value::Object(map) = answer {
        *content = map;
    }
    checked.map_err(|e| match e {
        SchemaError::Mismatch(e) => AnswerError::Refused(format!("the answer does not match the requested schema: {e}")),
        SchemaError::TooCostly(e) => AnswerError::TooCostly(format!("the requested schema is too costly to check the answer against: {e}")),
    })
}

/// Without the validator, an answer is held to `required` alone (checked above).
#[cfg(not(feature = "validator"))]
fn check_answer(_: &Value, _: &mut Map<String, Value>, _: &schema::Limits) -> Result<(), AnswerError> {
    Ok(())
}

/// Checks the overall shape of an elicitation result.
///
/// # Errors
/// What is wrong with it.
pub fn check_result(result: &Value) -> Result<(), String> {
    match result.get("action").and_then(Value::as_str) {
        Some("accept" | "decline" | "cancel") => {}
        _ => return Err("an elicitation result needs action \"accept\", \"decline\" or \"cancel\"".into()),
    }
    match result.get("content") {
        None | Some(Value::Null) | Some(Value::Object(_)) => Ok(()),
        Some(other) => Err(format!("elicitation content must be an object, not {}", kind(other))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string", "default": "John Doe"},
                "age": {"type": "integer", "default": 30, "minimum": 0},
                "score": {"type": "number", "default": 95.5},
                "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
                "verified": {"type": "boolean", "default": true},
                "email": {"type": "string", "format": "email"}
            },
            "required": ["name"]
        })
    }

    #[test]
    fn defaults_fill_what_the_user_left_out() {
        let mut content = Map::new();
        content.insert("age".into(), json!(41));
        complete_form_answer(&schema(), &mut content, &schema::Limits::DEFAULT).unwrap();
        assert_eq!(Value::Object(content), json!({"name": "John Doe", "age": 41, "score": 95.5, "status": "active", "verified": true}));
    }

    #[cfg(feature = "validator")]
    #[test]
    fn wrong_answers_are_refused() {
        for bad in [json!({"age": "old"}), json!({"status": "gone"}), json!({"age": -1}), json!({"verified": "yes"})] {
            let mut content = bad.as_object().unwrap().clone();
            assert!(complete_form_answer(&schema(), &mut content, &schema::Limits::DEFAULT).is_err(), "{bad}");
        }
        let mut no_defaults = Map::new();
        let strict = json!({"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]});
        assert!(complete_form_answer(&strict, &mut no_defaults, &schema::Limits::DEFAULT).unwrap_err().to_string().contains("\"x\""));
        let bomb = json!({"properties": {"x": {"anyOf": [{"$ref": "#/properties/x"}, {"$ref": "#/properties/x"}]}}});
        let mut answer = json!({"x": 1}).as_object().unwrap().clone();
        assert!(matches!(complete_form_answer(&bomb, &mut answer, &schema::Limits::DEFAULT), Err(AnswerError::TooCostly(_))));
    }

    #[test]
    fn result_shapes() {
        assert!(check_result(&json!({"action": "accept", "content": {}})).is_ok());
        assert!(check_result(&json!({"action": "decline"})).is_ok());
        assert!(check_result(&json!({"action": "maybe"})).is_err());
        assert!(check_result(&json!({"action": "accept", "content": []})).is_err());
    }
}
