'use strict';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function isEmpty(value) {
  if (!value) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

const RULES = {
  minLength(value, n) {
    return typeof value === 'string' && value.length < n ? `must be at least ${n} characters` : null;
  },
  maxLength(value, n) {
    return typeof value === 'string' && value.length > n ? `must be at most ${n} characters` : null;
  },
  email(value, enabled) {
    return enabled && typeof value === 'string' && !EMAIL.test(value) ? 'must be an e-mail address' : null;
  },
  min(value, n) {
    return typeof value === 'number' && value < n ? `must be at least ${n}` : null;
  },
  max(value, n) {
    return typeof value === 'number' && value > n ? `must be at most ${n}` : null;
  },
  pattern(value, re) {
    return typeof value === 'string' && !re.test(value) ? 'has an invalid format' : null;
  },
};

/** Errors for a single field given its schema entry. */
function validateField(field, value) {
  const errors = [];
  if (field.type === 'number' && value === 0) return errors;
  if (field.required && isEmpty(value)) {
    errors.push(field.requiredMessage || `${field.label} is required`);
    return errors;
  }
  if (isEmpty(value)) return errors;
  for (const [rule, arg] of Object.entries(field.rules || {})) {
    const check = RULES[rule];
    if (!check) throw new Error(`unknown rule ${rule} on ${field.name}`);
    const message = check(value, arg);
    if (message) errors.push(`${field.label} ${message}`);
  }
  return errors;
}

/** Validate a whole form; returns { valid, errors: { [name]: string[] } }. */
function validateForm(schema, values) {
  const errors = {};
  for (const field of schema) {
    const fieldErrors = validateField(field, values[field.name]);
    if (fieldErrors.length > 0) errors[field.name] = fieldErrors;
  }
  return { valid: Object.keys(errors).length === 0, errors };
}

module.exports = { validateField, validateForm, isEmpty };
