-- AlterEnum
ALTER TYPE "user_token_purpose" ADD VALUE 'sign_in';
