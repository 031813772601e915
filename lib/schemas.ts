/** yup schemas for the client's forms, built on the shared validators so both sides agree. */
import { object, string, type StringSchema } from 'yup';
import { DESCRIPTION_MAX, TAG_MAX } from './limits';
import { textOf } from './i18n/appTexts';
import { TEXTS } from './texts';
import { emailError, passwordError, usernameError } from './validation';

const rule = (schema: StringSchema, name: string, check: (value: string) => string | null) =>
  schema.test(name, (value, ctx) => {
    const error = check(value ?? '');
    return error ? ctx.createError({ message: error }) : true;
  });

export const tagSchema = string().trim().required(TEXTS.tagRequired).max(TAG_MAX, TEXTS.tagRequired);

export const loginSchema = object({
  email: string().trim().required('Email is required').email('Email must be a valid address'),
  password: string().required('Password is required'),
});

export const signupSchema = object({
  username: rule(string(), 'username', usernameError),
  email: rule(string().trim(), 'email', emailError),
  password: rule(string(), 'password', passwordError),
});

/** Built when the form is (its texts in the language shown then). */
export const accountSchema = () =>
  object({
    username: rule(string(), 'username', usernameError),
    newEmail: rule(string().trim(), 'email', emailError),
    password: string().required(textOf('settings.account.passwordRequired')),
    newPassword: string().test('newPassword', (value, ctx) => {
      if (!value) return true;
      const error = passwordError(value, 'New password');
      return error ? ctx.createError({ message: error }) : true;
    }),
  });

/** Built when the form is (its texts in the language shown then). */
export const profileSchema = () =>
  object({
    description: string().max(DESCRIPTION_MAX, textOf('settings.profile.descriptionTooLong', { max: DESCRIPTION_MAX })),
  });
