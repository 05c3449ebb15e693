import { setUserPassword } from '@brand/core';
import { CliCommand } from '../cli-command';
import { parseId } from '../cli-arguments';

interface SetPasswordOptions {
  user: number;
  password: string;
}

/** `brand set-password --user <id> --password <password>` */
export const setPasswordCommand: CliCommand<SetPasswordOptions> = {
  name: 'set-password',
  summary: "Set or replace a user's password, with which the user logs in (console, OAuth)",
  configure(command) {
    command
      .requiredOption('--user <id>', 'id of the user', parseId)
      .requiredOption('--password <password>', 'the new password (12 to 256 characters)');
  },
  async run({ storage, passwordHasher }, options) {
    const user = await setUserPassword(
      { uow: storage.uow, passwordHasher },
      { userId: options.user, password: options.password },
    );
    return {
      json: { user_id: user.id, brand_id: user.brandId, email: user.email, password_set: true },
      text: `Set the password of user ${user.id} <${user.email}>; they log in with that e-mail address.`,
    };
  },
};
