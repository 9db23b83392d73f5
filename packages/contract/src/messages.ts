/**
 * Every user-visible text the specification names, verbatim (misspellings included: existing
 * clients match on them). Screens and the server both read from here.
 */
export const MSG = {
  // accounts and sign-in
  alreadyLoggedIn: 'Your are already loged in',
  loggedInElsewhere: 'Your Account already login into another device or tab',
  registeredUser: 'Your account successfully register!',
  registeredAwaitingApproval: 'Wait for account approval you will get mail.',
  awaitingApproval: 'Your account is waiting for approval. You will get a mail once it is approved.',
  accountInactive: 'Your account is deactivated. Please contact the administrator.',
  invalidCredentials: 'These credentials do not match our records.',
  ssoNotConfigured: 'Enterprise login is not configured for this e-mail domain.',
  resetLinkSent: 'We have e-mailed your password reset link!',
  passwordReset: 'Your password reset successfully!',
  passwordChanged: 'Password change successfully!',
  resetTokenInvalid: 'This password reset link is invalid or has expired.',
  currentPasswordWrong: 'The current password is incorrect.',
  loggedOut: 'Logged out successfully!',
  registerSuccess: 'Register successfully!',
  recordAdded: 'Record Added Successfully!',
  tooManyAttempts: 'Too Many Attempts.',
  otpVerified: 'opt Verify successfully!',

  // transport and generic errors
  unauthenticated: 'Unauthenticated.',
  forbidden: 'You are not allowed to do this.',
  notFound: 'Not Found',
  methodNotAllowed: 'Method Not Allowed',
  internalError: 'Internal Server Error.',
  somethingWentWrong: 'Something went worng.',
  givenDataInvalid: 'The given data was invalid',

  // screens
  pageNotFound: 'page not found !',
  notAuthorized: 'Yor Are Not Authrized!',
  noDataFound: 'No Data Found',
  dataNotFound: 'Data Not Found',
  comingSoon: 'Coming soon',
  itemAddedIntoCart: 'Item Added Into Cart!',
  certificationAddedIntoCart: 'Certification Added Into Cart!',
  trainingLinkCopied: 'Training Link Copied!',
  waitMeetingNotLoaded: 'Wait meeting Not Loaded..',
  waitingForHost: 'Waiting for the host to start the training, please standby !',
  trainingAlreadyOpen: 'Training already open in another tab or browser please check',
  confirmStartTraining: 'Are you sure want to start Training?',
  confirmPayment: 'Are you sure want to make continue payment?',
  noCertificateFound: 'NO Certificate Found',
  recordingNotAvailable: 'Recording Not Available',
  verifyEmailOrMobile: 'Verify Email Or Mobile No.',
  incorrectOtp: 'Incorrect OTP try again',
  mobileVerified: 'Mobile no is verified',
  emailVerified: 'Email is verified',
  nameTaken: 'The Name has already been taken.',

  // admin master data and Excel imports (spec 02 §8)
  recordUpdated: 'Record updated successfully!',
  trainerRegistered: 'Trainer register successfully!',
  recordDeleted: 'Record deleted successfully!',
  courseDeleted: 'Course Deleted Successfully!',
  serviceCreated: 'Service create successfully!',
  fileRequired: 'The file field is required.',
  fileType: 'The file must be a file of type: xls, xlsx.',
  fileNoRows: 'The file has no rows.',
  fileUnreadable: 'The file could not be read.',

  // live trainings
  trainingCreated: 'Training created successfully!',
  trainingPublic: 'Training is public now.',
  trainingPrivate: 'Training is private now.',
  trainingDeleted: 'Training deleted successfully!',
  trainingAlreadyStarted: 'The training has already started and cannot be deleted.',
  trainingUserAdded: 'Training user added successfully!',
  trainingUserExists: 'The user is already added in this training.',
  trainingFull: 'The training has reached its number of participants.',
  trainingUserNotLearner: 'This account cannot be enrolled in a training.',
  trainersAssigned: 'Trainers assigned successfully!',
  trainerNotFound: 'The selected trainer is invalid.',
  topicStatusUpdated: 'Topic status updated successfully!',
  topicAlreadyCompleted: 'The topic is already completed.',
  topicStarted: 'A started topic cannot be deleted.',
  attendanceAdded: 'Attendance added successfully!',
  ratingAdded: 'Rating added successfully!',
  ratingNotAllowed: 'Rating is available only for completed topics.',
  certificateAccessYes: 'Certificate download access: YES',
  certificateAccessNo: 'Certificate download access: NO',
  joinRecorded: 'Join status updated successfully!',
} as const;

export type MessageKey = keyof typeof MSG;

/** Cancellation terms shown on /terms-and-conditions (spec 02 §9). */
export const CANCELLATION_TERMS = [
  'Cancel at least 48 hours before a class to receive a credit for a future class.',
  'No refunds are given.',
  'A late cancellation forfeits the payment.',
] as const;
