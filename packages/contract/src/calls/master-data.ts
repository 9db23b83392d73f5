import { z } from 'zod';
import { type ApiCall, call, empty } from '../api-base.js';
import type { Role } from '../roles.js';
import { listOf } from '../schemas/auth.js';
import { labTenantLimitsResponse, updateLabTenantLimitsRequest } from '../schemas/lab-limits.js';
import * as md from '../schemas/master-data.js';
import { pagedList } from '../schemas/paging.js';

const ADMIN: readonly Role[] = ['admin'];
/** Trainings are priced from the service list, so their managers read it too. */
const SERVICE_READERS: readonly Role[] = ['admin', 'provider', 'organization', 'org_subadmin'];

const message = z.object({ message: z.string() });

/**
 * Admin master data (spec 02 §7 'Categories, certifications, training courses, services',
 * /get-pricing, /update-vm-pricing) and the Excel template download shared by every import.
 */
export const MASTER_DATA_CALLS = {
  // certification master and certifications
  certificationMasterList: call(
    'certification-master-list',
    'public',
    'Certification master items (Exam, RolesType, CertificationType, CertificationRoles, Product), optionally of one type.',
    md.certificationMasterListRequest,
    listOf(md.certificationMasterItem),
  ),
  createCertificationMaster: call(
    'create-certification-master',
    ADMIN,
    'Add a certification master item; the name is unique within its type.',
    md.createCertificationMasterRequest,
    md.masterWriteResponse,
  ),
  uploadCertificationMaster: call(
    'upload-certification-master',
    ADMIN,
    'Import certifications from an .xls/.xlsx file (columns as in /download-template {type: certification}); all rows or none.',
    md.uploadRequest,
    md.importResponse,
    { multipart: true },
  ),
  createCertification: call(
    'create-certification',
    ADMIN,
    'Create a certification; the pick-list fields are ids of master items of the matching type.',
    md.certificationRequest,
    md.masterWriteResponse,
  ),
  certificationList: call(
    'certification-list',
    'public',
    'Certifications, paged, searchable by name, product, type, exam or role.',
    md.certificationListRequest,
    pagedList(md.certification),
  ),
  getCertification: call(
    'get-certification',
    ADMIN,
    'One certification for the edit form.',
    md.recordIdRequest,
    md.certificationResponse,
  ),
  getCertificationDetails: call(
    'get-certification-details',
    'public',
    'One certification for the public details page (the client base64-decodes the id from the URL).',
    md.recordIdRequest,
    md.certificationResponse,
  ),
  updateCertification: call(
    'update-certification',
    ADMIN,
    'Update a certification.',
    md.updateCertificationRequest,
    md.masterWriteResponse,
  ),
  deleteCertification: call('delete-certification', ADMIN, 'Delete a certification.', md.recordIdRequest, message),

  // categories
  categoryList: call('category-list', ADMIN, 'Categories.', empty, listOf(md.category)),
  createCategory: call(
    'create-category',
    ADMIN,
    'Add a category (name unique).',
    md.createCategoryRequest,
    md.masterWriteResponse,
  ),
  updateCategory: call(
    'update-category',
    ADMIN,
    'Rename a category (found by id; its slug stays).',
    md.updateCategoryRequest,
    md.masterWriteResponse,
  ),

  // training courses, modules, topics
  trainingCourseList: call(
    'training-course-list',
    ADMIN,
    'Training courses with their modules and topics nested.',
    empty,
    listOf(md.trainingCourseWithModules),
  ),
  getAllTrainingCourseList: call(
    'get-all-training-course-list',
    ADMIN,
    'Training courses, flat.',
    empty,
    listOf(md.trainingCourse),
  ),
  createTrainingCourse: call(
    'create-training-course',
    ADMIN,
    'Add a training course.',
    md.createTrainingCourseRequest,
    md.masterWriteResponse,
  ),
  deleteTrainingCourse: call(
    'delete-training-course',
    ADMIN,
    'Delete a training course with its modules and topics.',
    md.courseIdRequest,
    message,
  ),
  trainingModuleList: call(
    'training-module-list',
    ADMIN,
    'Modules of a training course, with their topics.',
    md.courseIdRequest,
    listOf(md.trainingModule),
  ),
  createTrainingModule: call(
    'create-training-module',
    ADMIN,
    'Add a module to a training course.',
    md.createTrainingModuleRequest,
    md.masterWriteResponse,
  ),
  deleteTrainingModule: call(
    'delete-training-module',
    ADMIN,
    'Delete a module with its topics.',
    md.moduleIdRequest,
    message,
  ),
  createTrainingTopic: call(
    'create-training-topic',
    ADMIN,
    'Add topics to a module of a course.',
    md.createTrainingTopicRequest,
    z.object({ message: z.string(), ids: z.array(z.number()) }),
  ),
  deleteTrainingTopic: call('delete-training-topic', ADMIN, 'Delete a topic.', md.topicIdRequest, message),

  // services
  createService: call(
    'create-service',
    ADMIN,
    'Add a service price (one record per service option).',
    md.createServiceRequest,
    md.masterWriteResponse,
  ),
  serviceList: call('service-list', SERVICE_READERS, 'Service prices.', empty, listOf(md.service)),
  getService: call('get-service', ADMIN, 'One service price.', md.recordIdRequest, z.object({ success: md.service })),
  updateService: call(
    'update-service',
    ADMIN,
    'Update the service price with this id.',
    md.updateServiceRequest,
    md.masterWriteResponse,
  ),
  getServicesPrice: call(
    'get-services-price',
    SERVICE_READERS,
    'Service and price pairs for pricing trainings.',
    empty,
    listOf(md.servicePrice),
  ),

  // VM pricing
  getPricing: call(
    'get-pricing',
    'authenticated',
    'VM pricing rows (per hour, by RAM) and monthly storage prices per GB.',
    empty,
    md.pricingResponse,
  ),
  updateVmPricing: call(
    'update-vm-pricing',
    ADMIN,
    'Update one pricing row and the storage prices.',
    md.updateVmPricingRequest,
    message,
  ),
  labTenantLimits: call(
    'lab-tenant-limits',
    ADMIN,
    'Each tenant with a lab account: its limits on labs running at once and their RAM (GB; null: none), and what runs now.',
    empty,
    labTenantLimitsResponse,
  ),
  updateLabTenantLimits: call(
    'update-lab-tenant-limits',
    ADMIN,
    'Set one tenant’s limits on labs running at once and their RAM in GB (empty: no limit); enforced at every start.',
    updateLabTenantLimitsRequest,
    message,
  ),

  // Excel templates
  downloadTemplate: call(
    'download-template',
    'authenticated',
    'The .xlsx template (header row and a sample row) of an Excel import.',
    md.downloadTemplateRequest,
    z.unknown().describe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
  ),
} satisfies Record<string, ApiCall>;
