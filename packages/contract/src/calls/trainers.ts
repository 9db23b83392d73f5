import { z } from 'zod';
import { call, empty } from '../api-base.js';
import type { Role } from '../roles.js';
import * as tr from '../schemas/trainers.js';

const TRAINER: readonly Role[] = ['trainer'];
const TRAINER_OR_ADMIN: readonly Role[] = ['trainer', 'admin'];
const MANAGERS: readonly Role[] = ['provider', 'organization', 'org_subadmin'];
/** Skills are read by trainers (their form), managers (trainer search) and the admin. */
const SKILL_READERS: readonly Role[] = ['trainer', 'admin', ...MANAGERS];
const message = z.object({ message: z.string() });

/** The trainer's own data and take calls (spec 02 §7 'Trainer data', 'Take calls'). */
export const TRAINER_CALLS = {
  // profile
  getTrainerProfile: call(
    'get-trainer-profile',
    TRAINER,
    'The calling trainer’s profile, Aadhar and PAN whole, pictures as thumbnails.',
    empty,
    tr.trainerProfileResponse,
  ),
  updateTrainerProfile: call(
    'update-trainer-profile',
    TRAINER,
    'Update the profile (multipart; profile_pic and address_proof are .png/.jpg/.jpeg images checked by content).',
    tr.trainerProfileUploadRequest,
    message,
    { multipart: true },
  ),
  trainerDashboard: call(
    'trainer-dashboard',
    TRAINER,
    'Open take calls waiting for an answer, assigned trainings with their next session, profile completeness.',
    empty,
    tr.trainerDashboardResponse,
  ),

  // bank details
  bankDetailsList: call(
    'bank-details-list',
    TRAINER_OR_ADMIN,
    'Bank accounts of the calling trainer (the admin names trainer_id); account numbers masked.',
    tr.bankListRequest,
    tr.bankPage,
  ),
  adminBankDetailsList: call(
    'admin-bank-details-list',
    ['admin'],
    'Every trainer’s bank accounts with the trainer’s name and e-mail; account numbers masked. Searchable by trainer, bank or IFSC.',
    tr.adminBankListRequest,
    tr.adminBankPage,
  ),
  addBankDetails: call('add-bank-details', TRAINER, 'Add a bank account.', tr.bankRequest, tr.writeResponse),
  getBankDetails: call(
    'get-bank-details',
    TRAINER_OR_ADMIN,
    'One bank account, whole (its trainer or the admin).',
    tr.recordRequest,
    tr.bankResponse,
  ),
  updateBankDetails: call(
    'update-bank-details',
    TRAINER,
    'Edit a bank account.',
    tr.updateBankRequest,
    tr.writeResponse,
  ),
  deleteBankDetails: call('delete-bank-details', TRAINER, 'Delete a bank account.', tr.recordRequest, message),

  // skills
  skillCategories: call(
    'skill-categories',
    SKILL_READERS,
    'Categories to choose a skill from.',
    empty,
    tr.skillCategoryList,
  ),
  getSkills: call('get-skills', SKILL_READERS, 'Skills, optionally of one category.', tr.skillsRequest, tr.skillList),
  createSkill: call(
    'create-skill',
    TRAINER_OR_ADMIN,
    'Add a skill to a category (name unique within it).',
    tr.createSkillRequest,
    tr.writeResponse,
  ),
  trainerSkillList: call(
    'trainer-skill-list',
    TRAINER,
    'The calling trainer’s skills.',
    tr.trainerSkillListRequest,
    tr.trainerSkillPage,
  ),
  addTrainerSkill: call('add-trainer-skill', TRAINER, 'Add a skill.', tr.trainerSkillRequest, tr.writeResponse),
  getTrainerSkill: call(
    'get-trainer-skill',
    TRAINER,
    'One skill of the caller.',
    tr.recordRequest,
    tr.trainerSkillResponse,
  ),
  updateTrainerSkill: call(
    'update-trainer-skill',
    TRAINER,
    'Edit a skill.',
    tr.updateTrainerSkillRequest,
    tr.writeResponse,
  ),
  deleteTrainerSkill: call('delete-trainer-skill', TRAINER, 'Delete a skill.', tr.recordRequest, message),

  // certificates
  trainerCertificateList: call(
    'trainer-certificate-list',
    TRAINER,
    'The calling trainer’s certificates.',
    tr.certificateListRequest,
    tr.certificatePage,
  ),
  getTrainerCertificate: call(
    'get-trainer-certificate',
    TRAINER,
    'One certificate of the caller.',
    tr.recordRequest,
    tr.certificateResponse,
  ),
  addTrainerCertificate: call(
    'add-trainer-certificate',
    TRAINER,
    'Add a certificate (multipart, certificate_image required).',
    tr.certificateUploadRequest,
    tr.writeResponse,
    { multipart: true },
  ),
  updateTrainerCertificate: call(
    'update-trainer-certificate',
    TRAINER,
    'Edit a certificate (multipart; an empty image keeps the current one).',
    tr.certificateUploadRequest,
    tr.writeResponse,
    { multipart: true },
  ),
  deleteTrainerCertificate: call(
    'delete-trainer-certificate',
    TRAINER,
    'Delete a certificate.',
    tr.recordRequest,
    message,
  ),

  // references
  trainerReferenceList: call(
    'trainer-reference-list',
    TRAINER,
    'The calling trainer’s references.',
    tr.referenceListRequest,
    tr.referencePage,
  ),
  getTrainerReference: call(
    'get-trainer-reference',
    TRAINER,
    'One reference of the caller.',
    tr.recordRequest,
    tr.referenceResponse,
  ),
  addTrainerReference: call(
    'add-trainer-reference',
    TRAINER,
    'Add a reference.',
    tr.referenceRequest,
    tr.writeResponse,
  ),
  updateTrainerReference: call(
    'update-trainer-reference',
    TRAINER,
    'Edit a reference.',
    tr.updateReferenceRequest,
    tr.writeResponse,
  ),
  deleteTrainerReference: call('delete-trainer-reference', TRAINER, 'Delete a reference.', tr.recordRequest, message),
};
