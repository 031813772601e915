/** yup schemas for the client's forms, built on the shared validators so both sides agree. */
import { object, string, type StringSchema } from 'yup';
import { DESCRIPTION_MAX, TAG_MAX } from './limits';
import { textOf } from './i18n/appTexts';
import { TEXTS } from './texts';
import { emailRule, passwordRule, type RuleBreak, usernameRule } from './validation';

/**
 * A broken rule in the language the app renders in (`auth.rules`), said when the form is checked.
 * `newPassword`: the field is a new password ("New password is required").
 */
export function ruleText(broken: RuleBreak, { newPassword = false } = {}): string {
  switch (broken.rule) {
    case 'usernameRequired':
      return textOf('auth.rules.usernameRequired');
    case 'usernameLength':
      return textOf('auth.rules.usernameLength', { min: broken.min, max: broken.max });
    case 'usernamePattern':
      return textOf('auth.rules.usernamePattern');
    case 'usernameReserved':
      return textOf('auth.rules.usernameReserved');
    case 'emailRequired':
      return textOf('auth.rules.emailRequired');
    case 'emailInvalid':
      return textOf('auth.rules.emailInvalid');
    case 'passwordRequired':
      return newPassword ? textOf('auth.rules.newPasswordRequired') : textOf('auth.rules.passwordRequired');
    case 'passwordControl':
      return newPassword ? textOf('auth.rules.newPasswordControl') : textOf('auth.rules.passwordControl');
    case 'passwordLength':
      return newPassword
        ? textOf('auth.rules.newPasswordLength', { min: broken.min, max: broken.max })
        : textOf('auth.rules.passwordLength', { min: broken.min, max: broken.max });
  }
}

/** A field checked by a shared rule (lib/validation.ts), its message in the app's language. */
const rule = (
  schema: StringSchema,
  name: string,
  check: (value: string) => RuleBreak | null,
  options?: { newPassword?: boolean },
) =>
  schema.test(name, (value, ctx) => {
    const broken = check(value ?? '');
    return broken ? ctx.createError({ message: ruleText(broken, options) }) : true;
  });

/** The email field of the sign-in and reset forms: yup calls the messages when it checks. */
export const emailField = () =>
  string()
    .trim()
    .required(() => textOf('auth.rules.emailRequired'))
    .email(() => textOf('auth.rules.emailInvalid'));

/** A new password (the reset form's), its messages naming it so. */
export const newPasswordField = () => rule(string(), 'password', passwordRule, { newPassword: true });

export const tagSchema = string().trim().required(TEXTS.tagRequired).max(TAG_MAX, TEXTS.tagRequired);

export const loginSchema = object({
  email: emailField(),
  password: string().required(() => textOf('auth.rules.passwordRequired')),
});

export const signupSchema = object({
  username: rule(string(), 'username', usernameRule),
  email: rule(string().trim(), 'email', emailRule),
  password: rule(string(), 'password', passwordRule),
});

/** Built when the form is (its texts in the language shown then). */
export const accountSchema = () =>
  object({
    username: rule(string(), 'username', usernameRule),
    newEmail: rule(string().trim(), 'email', emailRule),
    password: string().required(textOf('settings.account.passwordRequired')),
    newPassword: string().test('newPassword', (value, ctx) => {
      if (!value) return true;
      const broken = passwordRule(value);
      return broken ? ctx.createError({ message: ruleText(broken, { newPassword: true }) }) : true;
    }),
  });

/** Built when the form is (its texts in the language shown then). */
export const profileSchema = () =>
  object({
    description: string().max(DESCRIPTION_MAX, textOf('settings.profile.descriptionTooLong', { max: DESCRIPTION_MAX })),
  });
